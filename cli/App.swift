import ConcordClient
import ConcordServer
import SampleApp

// The app this build of `concord` speaks: its scopes' renderers and words, and its reducer for
// rebuilding states from the log. The same app `concordd` hosts.
let hostedApp = SampleApp.hosted

extension ClientApp {
  static var current: ClientApp { SampleApp.client }
}
