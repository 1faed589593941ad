import Support

/// A mistake in a dataset config YAML: Support's config error, naming the file, line and key.
public typealias DatasetConfigError = YAMLError
