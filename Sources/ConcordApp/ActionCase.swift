/// The one rule of an app action's JSON: an object with exactly one member, named for the case.
///
/// ```swift
/// let (container, key) = try ActionCase.read(Case.self, from: decoder)   // {"board": {…}}
/// ```
public enum ActionCase {
  /// The action's object and the one member it has; throws, naming the members it may have,
  /// for none or several.
  public static func read<Case: CodingKey & CaseIterable & RawRepresentable<String>>(
    _ type: Case.Type, from decoder: any Decoder
  ) throws -> (KeyedDecodingContainer<Case>, Case) {
    let container = try decoder.container(keyedBy: Case.self)
    let keys = container.allKeys
    guard keys.count == 1, let key = keys.first else {
      let names = Case.allCases.map(\.rawValue).joined(separator: ", ")
      throw DecodingError.dataCorrupted(
        .init(codingPath: decoder.codingPath, debugDescription: "an action is an object with one of the members \(names)"))
    }
    return (container, key)
  }
}
