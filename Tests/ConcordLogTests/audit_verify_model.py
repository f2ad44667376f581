#!/usr/bin/env python3
"""An independent verifier of Concord audit exports, written from
schema/audit-export.schema.json alone (its description, $comment and $defs), not from the
Swift code. The Swift tests run it beside AuditExport.verify and require the two to agree.

Usage:
  audit_verify_model.py [--public-key HEX] EXPORT.jsonl
  audit_verify_model.py --csv [--public-key HEX] EXPORT.csv   (and EXPORT.csv.meta.jsonl beside it)

Prints "ok ENTRIES STUBS" and exits 0 when the export verifies; otherwise prints
"fail LINE SEQ REASON" (SEQ is "-" when unknown) and exits 1. JSONL lines are counted from 1,
empty lines skipped. The Ed25519 signature is checked with the `cryptography` package (Debian:
python3-cryptography); without it the model refuses to give a verdict. Standard library only
besides that.
"""

import csv
import hashlib
import io
import json
import re
import struct
import sys

INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
FORMAT = "concord-audit-v1"


class Broken(Exception):
    def __init__(self, reason, seq=None):
        super().__init__(reason)
        self.reason, self.seq = reason, seq


# --- reading one line strictly -----------------------------------------------------------


def _no_float(text):
    raise Broken("integer written with a fraction or exponent: " + text)


def _no_constant(text):
    raise Broken("not a JSON value: " + text)


def _int(text):
    value = int(text)
    if not INT64_MIN <= value <= INT64_MAX:
        raise Broken("integer outside int64: " + text)
    return value


def _pairs(pairs):
    obj = {}
    for key, value in pairs:
        if key in obj:
            raise Broken("duplicate member " + key)
        obj[key] = value
    return obj


def read_object(raw):
    """One line's bytes -> dict of str -> str | int | None, or Broken."""
    if raw.startswith(b"\xef\xbb\xbf"):
        raise Broken("byte-order mark")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise Broken("not UTF-8")
    try:
        obj = json.loads(
            text, object_pairs_hook=_pairs, parse_float=_no_float, parse_int=_int,
            parse_constant=_no_constant)
    except Broken:
        raise
    except ValueError as error:
        raise Broken("not JSON: %s" % error)
    if not isinstance(obj, dict):
        raise Broken("not an object")
    for key, value in obj.items():
        if value is None or type(value) is int:
            continue
        if type(value) is not str:
            raise Broken("member %s is not a string, integer or null" % key)
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise Broken("member %s holds a lone surrogate" % key)
    return obj


# --- the schema's $defs ----------------------------------------------------------------------

TIME = re.compile(r"^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})\.(\d{3})Z$", re.ASCII)


def days_from_civil(y, m, d):
    y -= m <= 2
    era = (y if y >= 0 else y - 399) // 400
    yoe = y - era * 400
    doy = (153 * (m + (-3 if m > 2 else 9)) + 2) // 5 + d - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


def ms(text):
    """ms(t) of the schema, or None when t is not a canonical time."""
    match = TIME.match(text) if isinstance(text, str) else None
    if not match:
        return None
    y, mo, d, h, mi, s, milli = (int(g) for g in match.groups())
    leap = y % 4 == 0 and (y % 100 != 0 or y % 400 == 0)
    days_in = [31, 29 if leap else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
    if not (1 <= mo <= 12 and 1 <= d <= days_in[mo - 1] and h < 24 and mi < 60 and s < 60):
        return None
    return ((days_from_civil(y, mo, d) * 24 + h) * 60 + mi) * 60000 + s * 1000 + milli


def hex_of(value, nbytes):
    if isinstance(value, str) and re.fullmatch("[0-9a-f]{%d}" % (2 * nbytes), value):
        return bytes.fromhex(value)
    return None


def is_int(value, minimum=INT64_MIN):
    return type(value) is int and minimum <= value <= INT64_MAX


def is_str(value):
    return type(value) is str


def time_or_null(value):
    return value is None or ms(value) is not None


SHAPES = {
    "header": {
        "type": lambda v: v == "header", "format": lambda v: v == FORMAT,
        "log_id": lambda v: hex_of(v, 16) is not None, "from": lambda v: is_int(v, 1),
        "to": lambda v: is_int(v, 0), "count": lambda v: is_int(v, 0),
        "first_time": time_or_null, "last_time": time_or_null,
        "public_key": lambda v: hex_of(v, 32) is not None,
        "prev_hash": lambda v: hex_of(v, 32) is not None,
    },
    "entry": {
        "type": lambda v: v == "entry", "seq": lambda v: is_int(v, 1),
        "time": lambda v: ms(v) is not None, "user": is_str, "client": is_str,
        "cseq": is_int, "scope": is_str, "action": is_str,
        "outcome": lambda v: v in ("applied", "refused"),
        "reason": lambda v: v is None or is_str(v), "app": is_str, "app_version": is_int,
        "salt": lambda v: hex_of(v, 16) is not None,
        "prev_hash": lambda v: hex_of(v, 32) is not None,
        "hash": lambda v: hex_of(v, 32) is not None,
    },
    "stub": {
        "type": lambda v: v == "stub", "seq": lambda v: is_int(v, 1),
        "prev_hash": lambda v: hex_of(v, 32) is not None,
        "hash": lambda v: hex_of(v, 32) is not None,
    },
    "footer": {
        "type": lambda v: v == "footer", "seq": lambda v: is_int(v, 0),
        "chain_head": lambda v: hex_of(v, 32) is not None,
        "signature": lambda v: hex_of(v, 64) is not None,
    },
}


def check_shape(obj):
    kind = obj.get("type")
    if kind not in SHAPES:
        raise Broken("unknown type %r" % (kind,))
    shape = dict(SHAPES[kind])
    # A scoped export names its scope; a selection export its selection, in words; never both.
    if kind == "header" and "scope" in obj:
        shape["scope"] = is_str
    elif kind == "header" and "selection" in obj:
        shape["selection"] = is_str
    for key in obj:
        if key not in shape:
            raise Broken("unknown member " + key)
    for key, ok in shape.items():
        if key not in obj:
            raise Broken("missing member " + key)
        if not ok(obj[key]):
            raise Broken("bad value for " + key)
    return kind


# --- the schema's NOTATION, PAYLOAD and CHAIN HASH ------------------------------------------


def H(data):
    return hashlib.blake2b(data, digest_size=32).digest()


def u32(n):
    return struct.pack(">I", n)


def i64(n):
    return struct.pack(">q", n)


def text(s):
    data = s.encode("utf-8")
    return u32(len(data)) + data


def chain_hash(prev, e):
    refused = e["outcome"] == "refused"
    payload = (b"\x01" + bytes.fromhex(e["salt"]) + text(e["user"]) + text(e["scope"])
               + text(e["action"]) + (b"\x01" if refused else b"\x00")
               + text(e["reason"] if refused else "") + text(e["app"]) + i64(e["app_version"]))
    return H(prev + b"concord.chain.v1" + i64(e["seq"]) + i64(ms(e["time"]))
             + text(e["client"]) + i64(e["cseq"]) + payload)


def signature_ok(public_key, log_id, seq, head, signature):
    try:
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
        from cryptography.exceptions import InvalidSignature
    except ImportError:
        # A verifier that cannot check the signature must not say "ok": fail closed.
        sys.exit("audit_verify_model: the footer's Ed25519 signature needs the cryptography "
                 "package (Debian: python3-cryptography)")
    message = b"concord.checkpoint.v1" + log_id + i64(seq) + head
    try:
        Ed25519PublicKey.from_public_bytes(public_key).verify(signature, message)
        return True
    except InvalidSignature:
        return False


# --- VERIFICATION: the schema's steps ------------------------------------------------------


class Walk:
    def __init__(self, trusted_key):
        self.trusted_key = trusted_key
        self.number = 0
        self.declared = None
        self.entries = self.stubs = 0
        self.times = []
        self.saw_footer = False

    def take(self, obj):
        self.number += 1
        if self.saw_footer:
            raise Broken("text after the footer")
        kind = check_shape(obj)
        if (self.number == 1) != (kind == "header"):
            raise Broken("the header must be line 1, and only line 1")
        {"header": self.header, "entry": self.entry, "stub": self.stub, "footer": self.footer}[kind](obj)

    def header(self, h):
        key = bytes.fromhex(h["public_key"])
        if self.trusted_key is not None and key != self.trusted_key:
            raise Broken("header key is not the trusted key")
        self.key = self.trusted_key or key
        self.log_id = bytes.fromhex(h["log_id"])
        self.prev = bytes.fromhex(h["prev_hash"])
        if h["from"] == 1 and self.prev != H(b"concord.genesis.v1" + self.log_id):
            raise Broken("from 1 without the genesis hash")
        self.next = h["from"]
        self.declared = h

    def follows(self, record):
        if record["seq"] != self.next:
            raise Broken("expected seq %d" % self.next, self.next)
        if bytes.fromhex(record["prev_hash"]) != self.prev:
            raise Broken("prev_hash breaks the chain", record["seq"])

    def entry(self, e):
        self.follows(e)
        scope = self.declared.get("scope")
        if scope is not None and e["scope"] != scope:
            raise Broken("an entry outside the export's scope", e["seq"])
        if (e["outcome"] == "refused") != (e["reason"] is not None):
            raise Broken("reason does not fit the outcome", e["seq"])
        digest = chain_hash(self.prev, e)
        if bytes.fromhex(e["hash"]) != digest:
            raise Broken("hash mismatch", e["seq"])
        self.times.append(ms(e["time"]))
        self.prev, self.next, self.entries = digest, self.next + 1, self.entries + 1

    def stub(self, s):
        self.follows(s)
        if self.declared.get("scope") is None and self.declared.get("selection") is None:
            raise Broken("a stub in an export without a scope or a selection", s["seq"])
        self.prev, self.next, self.stubs = bytes.fromhex(s["hash"]), self.next + 1, self.stubs + 1

    def footer(self, f):
        self.saw_footer = True
        h = self.declared
        if f["seq"] != self.next - 1:
            raise Broken("footer vouches for seq %d, the export ends at %d" % (f["seq"], self.next - 1),
                         min(f["seq"], self.next))
        if bytes.fromhex(f["chain_head"]) != self.prev:
            raise Broken("chain head is not the last hash", f["seq"])
        if self.entries + self.stubs != h["count"]:
            raise Broken("count mismatch")
        if h["to"] != f["seq"]:
            raise Broken("header.to is not footer.seq")
        first = min(self.times) if self.times else None
        last = max(self.times) if self.times else None
        if (ms(h["first_time"]) if h["first_time"] else None) != first or \
           (ms(h["last_time"]) if h["last_time"] else None) != last:
            raise Broken("first/last time mismatch")
        if not signature_ok(self.key, self.log_id, f["seq"], self.prev, bytes.fromhex(f["signature"])):
            raise Broken("bad signature", f["seq"])

    def finish(self):
        if self.number == 0:
            raise Broken("empty export")
        if not self.saw_footer:
            raise Broken("no footer: cut short", self.next)


# WHAT A READER ACCEPTS: a line is at most 8,388,608 bytes without its "\n".
MAX_LINE_BYTES = 8 * 1024 * 1024


def verify_jsonl(data, trusted_key):
    """(True, walk, None) or (False, failing line, Broken)."""
    walk = Walk(trusted_key)
    try:
        for raw in data.split(b"\n"):
            if raw == b"":
                continue
            if len(raw) > MAX_LINE_BYTES:
                walk.number += 1
                raise Broken("the line is longer than any record of an export", walk.next if walk.declared else None)
            try:
                obj = read_object(raw)
            except Broken as broken:
                walk.number += 1
                raise Broken(broken.reason, walk.next if walk.declared else None) from None
            walk.take(obj)
        walk.finish()
    except Broken as broken:
        return False, walk.number, broken
    return True, walk, None


# --- the CSV VARIANT --------------------------------------------------------------------------

COLUMNS = ["seq", "time", "user", "client", "cseq", "scope", "action", "outcome", "reason", "app",
           "app_version", "salt", "prev_hash", "hash"]


def unguard(field):
    """The formula guard undone: a field that starts with ' had exactly one added."""
    return field[1:] if field.startswith("'") else field


def verify_csv(data, meta, trusted_key):
    """A plain CSV file (the column names, then one row per record) and its metadata file
    (FILE.meta.jsonl: the header line, then the footer line, as in the JSONL export)."""
    meta_lines = [line for line in meta.decode("utf-8").split("\n") if line != ""]
    if len(meta_lines) != 2:
        return False, 0, Broken("the metadata file holds %d lines, not a header and a footer" % len(meta_lines))
    walk = Walk(trusted_key)
    try:
        walk.take(read_object(meta_lines[0].encode("utf-8")))
        rows = list(csv.reader(io.StringIO(data.decode("utf-8"), newline="")))
        if not rows or rows[0] != COLUMNS:
            raise Broken("wrong columns")
        for row in rows[1:]:
            fields = dict(zip(COLUMNS, (unguard(f) for f in row)))
            if fields["outcome"] == "" and fields["time"] == "":
                walk.take({"type": "stub", "seq": int(fields["seq"]),
                           "prev_hash": fields["prev_hash"], "hash": fields["hash"]})
                continue
            record = dict(fields, type="entry", seq=int(fields["seq"]), cseq=int(fields["cseq"]),
                          app_version=int(fields["app_version"]))
            if record["outcome"] == "applied":
                record["reason"] = None
            walk.take(record)
        walk.take(read_object(meta_lines[1].encode("utf-8")))
        walk.finish()
    except (Broken, ValueError, KeyError) as broken:
        return False, walk.number, broken if isinstance(broken, Broken) else Broken(str(broken))
    return True, walk, None


def main(argv):
    args = list(argv)
    as_csv = "--csv" in args
    if as_csv:
        args.remove("--csv")
    key = None
    if "--public-key" in args:
        at = args.index("--public-key")
        key = bytes.fromhex(args[at + 1])
        del args[at:at + 2]
    with open(args[0], "rb") as handle:
        data = handle.read()
    if as_csv:
        with open(args[0] + ".meta.jsonl", "rb") as handle:
            ok, walk, broken = verify_csv(data, handle.read(), key)
    else:
        ok, walk, broken = verify_jsonl(data, key)
    if ok:
        print("ok %d %d" % (walk.entries, walk.stubs))
        return 0
    print("fail %d %s %s" % (walk, "-" if broken.seq is None else broken.seq, broken.reason))
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
