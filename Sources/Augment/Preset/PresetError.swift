import Support

/// A preset that cannot be used: Support's config error, naming the file, line and key to fix.
public typealias PresetError = YAMLError
