import ConcordJSON

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
    // The usual object, one member, read from the JSON itself: `allKeys` goes through the
    // standard library's boxes and casts, about 6,000 instructions, on every action a boot
    // replays and a window sends.
    if let json = decoder as? JSONValueDecoder, case let .object(members) = json.value, members.count == 1,
      let name = members.keys.first, let key = Case(stringValue: name)
    {
      return (container, key)
    }
    let keys = container.allKeys
    guard keys.count == 1, let key = keys.first else {
      let names = Case.allCases.map(\.rawValue).joined(separator: ", ")
      throw DecodingError.dataCorrupted(
        .init(codingPath: decoder.codingPath, debugDescription: "an action is an object with one of the members \(names)"))
    }
    return (container, key)
  }
}
