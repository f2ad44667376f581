import ConcordWire
import Foundation

/// A readable rendering of any state: indented JSON, cut to the width.
public enum GenericRendering {
  public static func lines(of json: JSONValue, width: Int) -> [String] {
    var lines: [String] = []
    write(json, indent: 0, prefix: "", into: &lines)
    return lines.map { TextFit.cut($0, max(2, width)) }
  }

  private static func write(_ json: JSONValue, indent: Int, prefix: String, into lines: inout [String]) {
    let pad = String(repeating: "  ", count: indent)
    switch json {
    case let .object(object) where !object.isEmpty:
      lines.append(pad + prefix + "{")
      for key in object.keys.sorted() { write(object[key]!, indent: indent + 1, prefix: "\(key): ", into: &lines) }
      lines.append(pad + "}")
    case let .array(array) where !array.isEmpty:
      lines.append(pad + prefix + "[")
      for element in array { write(element, indent: indent + 1, prefix: "", into: &lines) }
      lines.append(pad + "]")
    default:
      lines.append(pad + prefix + json.jsonText)
    }
  }
}
