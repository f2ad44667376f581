#!/usr/bin/env bash
# Runs the whole test suite: installs the system packages it needs (libsodium-dev,
# libsqlite3-dev) when they are missing, builds, and runs every test target.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/system-packages.sh
# python3 runs the independent wire peer (Tests/ConcordServerTests/wire_contract_peer.py) and the
# export verifier; python3-jsonschema validates Workspace's traffic against its published schema
# (app_schema_peer.py); python3-cryptography checks an audit export's signature in the independent
# verifier (audit_verify_model.py); sqlite3 imports a CSV export as an auditor's database would;
# OpenSSH (server and client) carries the remote-daemon tests (SSHTests: a real sshd on loopback),
# iproute2 makes their two "machines" in network namespaces joined by a veth pair; systemd
# brings systemd-analyze, which reads the shipped user unit (DaemonUnitTests); gcc builds the
# benchmarks' C reference daemon (ReferenceDaemonTests).
concord_install_system_packages python3 python3-jsonschema python3-cryptography sqlite3 openssh-server openssh-client iproute2 systemd gcc

swift build --build-tests
# The API documentation: DocC builds every module an app developer uses without a warning, and
# every public declaration has a doc comment.
scripts/docs.sh --check
# swift-argument-parser's man page generator: ManPagesTests holds docs/man to the commands.
swift build --product generate-manual
# The starter app, a package of its own that depends on Concord by path: ShopListEndToEndTests
# runs its program, `shoplist`.
swift build --package-path Examples/ShopList
swift test --skip-build "$@"
