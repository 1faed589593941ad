import Support

/// Experiment files, training model files and `--set` overrides are read by Support's strict
/// reader, like every other config; these names stay for the readers written against them.
typealias ConfigMapping = YAMLMapping

/// A configuration mistake, naming the file (or `--set`), the line and the dotted key.
public typealias ExperimentConfigError = YAMLError
