import DaemonDriving
import Foundation
import Testing

/// The apps' JSON is what `schema/workspace.schema.json` and `schema/sample-app.schema.json`
/// publish: `app_schema_peer.py`, a client written from the schemas alone, sends the documented
/// JSON of every action through `concord send` and a raw socket, and validates with the
/// `jsonschema` package every state it is sent (snapshots and updates), what `concord state`
/// prints, and every action text of the audit export. Actions the schema refuses must be refused
/// by the daemon too.
@Suite(.serialized) struct AppSchemaTests {
  @Test func realTrafficFitsThePublishedSchema() throws {
    let (status, text) = try PythonPeer.run("app_schema_peer.py")
    #expect(status == 0 && text.contains(" passed, 0 failed"), "\(text.suffix(4_000))")
  }
}
