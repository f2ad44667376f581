// ref_daemon: the durable path of a daemon with nothing else in it, the yardstick that
// `scripts/bench.sh daemon` measures concordd against in the same run.
//
// One thread and epoll on a Unix socket. A request is a frame, [4-byte big-endian length]
// [payload]. At every wake-up the daemon takes each complete frame from each ready connection,
// seals each payload with XChaCha20-Poly1305 (libsodium, a random nonce), inserts them all into
// SQLite (WAL) in one transaction, commits, and only then answers each with its seq: a frame of
// 8 bytes, [length 8][seq, 8 bytes big-endian]. With `updates`, it also sends every connection an
// update after each commit, [length 16][the newest seq][the number of entries the commit held]:
// the work concordd does for windows attached to the state an action changes.
//
//   ref_daemon SOCKET DATABASE FULL|NORMAL [updates]      (runs until SIGTERM or SIGINT)
#define _GNU_SOURCE  // accept4
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sodium.h>
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#define MAX_FDS 65536
#define MAX_FRAME (1 << 20)
#define SEALED_EXTRA (crypto_aead_xchacha20poly1305_ietf_ABYTES)
#define NONCE_BYTES (crypto_aead_xchacha20poly1305_ietf_NPUBBYTES)

typedef struct {
  uint8_t *data;
  size_t length, capacity, start;
} bytes;

typedef struct {
  int open;
  int slot;  // its place in `open_fds`
  bytes in, out;
  int writing;  // EPOLLOUT is armed: the socket took less than was queued.
} connection;

typedef struct {
  int fd;
  size_t offset, length;  // the payload, in the batch's arena
} request;

static connection connections[MAX_FDS];
// The open connections, packed: an update goes to each without walking every possible fd.
static int open_fds[MAX_FDS];
static int open_count = 0;
static volatile sig_atomic_t stopping = 0;
static int poller;

static void on_signal(int signal_number) {
  (void)signal_number;
  stopping = 1;
}

static void fail(const char *what) {
  fprintf(stderr, "ref_daemon: %s: %s\n", what, errno ? strerror(errno) : "failed");
  exit(1);
}

static void reserve(bytes *b, size_t more) {
  if (b->length + more <= b->capacity) return;
  size_t capacity = b->capacity ? b->capacity : 4096;
  while (capacity < b->length + more) capacity *= 2;
  b->data = realloc(b->data, capacity);
  if (!b->data) fail("out of memory");
  b->capacity = capacity;
}

static void append(bytes *b, const void *data, size_t length) {
  reserve(b, length);
  memcpy(b->data + b->length, data, length);
  b->length += length;
}

static void put_be32(uint8_t *p, uint32_t v) {
  p[0] = v >> 24; p[1] = v >> 16; p[2] = v >> 8; p[3] = v;
}

static void put_be64(uint8_t *p, uint64_t v) {
  for (int i = 0; i < 8; i++) p[i] = v >> (56 - 8 * i);
}

static void close_connection(int fd) {
  connection *c = &connections[fd];
  int last = open_fds[--open_count];
  open_fds[c->slot] = last;
  connections[last].slot = c->slot;
  epoll_ctl(poller, EPOLL_CTL_DEL, fd, NULL);
  close(fd);
  free(c->in.data);
  free(c->out.data);
  memset(c, 0, sizeof *c);
}

// Writes what the connection has queued, as far as the socket takes it; arms EPOLLOUT for the rest.
static void flush(int fd) {
  connection *c = &connections[fd];
  while (c->out.start < c->out.length) {
    ssize_t n = send(fd, c->out.data + c->out.start, c->out.length - c->out.start, MSG_NOSIGNAL);
    if (n > 0) { c->out.start += n; continue; }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
    close_connection(fd);
    return;
  }
  if (c->out.start == c->out.length) c->out.start = c->out.length = 0;
  int want = c->out.length > 0;
  if (want != c->writing) {
    struct epoll_event event = {.events = EPOLLIN | (want ? EPOLLOUT : 0), .data.fd = fd};
    epoll_ctl(poller, EPOLL_CTL_MOD, fd, &event);
    c->writing = want;
  }
}

// Reads what the socket holds; 0 when the peer is gone.
static int fill(int fd) {
  connection *c = &connections[fd];
  for (;;) {
    reserve(&c->in, 65536);
    ssize_t n = recv(fd, c->in.data + c->in.length, c->in.capacity - c->in.length, 0);
    if (n > 0) { c->in.length += n; continue; }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return 1;
    return 0;
  }
}

int main(int argc, char **argv) {
  if (argc < 4 || (strcmp(argv[3], "FULL") && strcmp(argv[3], "NORMAL"))) {
    fprintf(stderr, "usage: ref_daemon SOCKET DATABASE FULL|NORMAL [updates]\n");
    return 2;
  }
  int updates = argc > 4 && !strcmp(argv[4], "updates");
  if (sodium_init() < 0) fail("libsodium");
  uint8_t key[crypto_aead_xchacha20poly1305_ietf_KEYBYTES];
  crypto_aead_xchacha20poly1305_ietf_keygen(key);

  sqlite3 *db;
  if (sqlite3_open(argv[2], &db) != SQLITE_OK) fail("sqlite3_open");
  char pragmas[256];
  snprintf(pragmas, sizeof pragmas,
           "PRAGMA journal_mode=WAL; PRAGMA synchronous=%s;"
           "CREATE TABLE IF NOT EXISTS log(seq INTEGER PRIMARY KEY, nonce BLOB NOT NULL, sealed BLOB NOT NULL);",
           argv[3]);
  if (sqlite3_exec(db, pragmas, NULL, NULL, NULL) != SQLITE_OK) fail(sqlite3_errmsg(db));
  sqlite3_stmt *insert, *begin, *commit;
  sqlite3_prepare_v2(db, "INSERT INTO log(seq, nonce, sealed) VALUES (?, ?, ?)", -1, &insert, NULL);
  sqlite3_prepare_v2(db, "BEGIN", -1, &begin, NULL);
  sqlite3_prepare_v2(db, "COMMIT", -1, &commit, NULL);
  sqlite3_stmt *last;
  sqlite3_prepare_v2(db, "SELECT coalesce(max(seq), 0) FROM log", -1, &last, NULL);
  sqlite3_step(last);
  uint64_t seq = sqlite3_column_int64(last, 0);
  sqlite3_finalize(last);

  int listener = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  struct sockaddr_un address = {.sun_family = AF_UNIX};
  if (strlen(argv[1]) >= sizeof address.sun_path) { errno = ENAMETOOLONG; fail(argv[1]); }
  strcpy(address.sun_path, argv[1]);
  unlink(argv[1]);
  if (bind(listener, (struct sockaddr *)&address, sizeof address) < 0) fail("bind");
  chmod(argv[1], 0600);
  if (listen(listener, 1024) < 0) fail("listen");

  struct sigaction action = {.sa_handler = on_signal};
  sigaction(SIGTERM, &action, NULL);
  sigaction(SIGINT, &action, NULL);
  signal(SIGPIPE, SIG_IGN);
  // A parent may start it with these blocked (Foundation's Process does): it must still stop.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGTERM);
  sigaddset(&stop_signals, SIGINT);
  sigprocmask(SIG_UNBLOCK, &stop_signals, NULL);

  poller = epoll_create1(EPOLL_CLOEXEC);
  struct epoll_event event = {.events = EPOLLIN, .data.fd = listener};
  epoll_ctl(poller, EPOLL_CTL_ADD, listener, &event);

  struct epoll_event ready[512];
  bytes arena = {0};
  request *batch = NULL;
  size_t batch_capacity = 0;
  bytes sealed = {0};
  while (!stopping) {
    int count = epoll_wait(poller, ready, 512, -1);
    if (count < 0) {
      if (errno == EINTR) continue;
      fail("epoll_wait");
    }
    size_t batched = 0;
    arena.length = 0;
    for (int i = 0; i < count; i++) {
      int fd = ready[i].data.fd;
      if (fd == listener) {
        int peer;
        while ((peer = accept4(listener, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC)) >= 0) {
          if (peer >= MAX_FDS) { close(peer); continue; }
          connections[peer].open = 1;
          connections[peer].slot = open_count;
          open_fds[open_count++] = peer;
          struct epoll_event in = {.events = EPOLLIN, .data.fd = peer};
          epoll_ctl(poller, EPOLL_CTL_ADD, peer, &in);
        }
        continue;
      }
      connection *c = &connections[fd];
      if (!c->open) continue;
      if (ready[i].events & EPOLLOUT) flush(fd);
      if (!c->open || !(ready[i].events & (EPOLLIN | EPOLLHUP | EPOLLERR))) continue;
      int alive = fill(fd);
      // Every complete frame joins this wake-up's batch.
      while (c->in.length - c->in.start >= 4) {
        uint8_t *p = c->in.data + c->in.start;
        uint32_t length = (uint32_t)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3];
        if (length > MAX_FRAME) { alive = 0; break; }
        if (c->in.length - c->in.start < 4 + (size_t)length) break;
        if (batched == batch_capacity) {
          batch_capacity = batch_capacity ? 2 * batch_capacity : 1024;
          batch = realloc(batch, batch_capacity * sizeof *batch);
          if (!batch) fail("out of memory");
        }
        batch[batched++] = (request){.fd = fd, .offset = arena.length, .length = length};
        append(&arena, p + 4, length);
        c->in.start += 4 + length;
      }
      if (c->in.start == c->in.length) c->in.start = c->in.length = 0;
      if (!alive) {
        // Its frames in this batch are still logged; their answers go nowhere.
        for (size_t j = 0; j < batched; j++) if (batch[j].fd == fd) batch[j].fd = -1;
        close_connection(fd);
      }
    }
    if (batched == 0) continue;

    sqlite3_step(begin);
    sqlite3_reset(begin);
    for (size_t j = 0; j < batched; j++) {
      uint8_t nonce[NONCE_BYTES];
      randombytes_buf(nonce, sizeof nonce);
      sealed.length = 0;
      reserve(&sealed, batch[j].length + SEALED_EXTRA);
      unsigned long long sealed_length;
      crypto_aead_xchacha20poly1305_ietf_encrypt(sealed.data, &sealed_length, arena.data + batch[j].offset,
                                                 batch[j].length, NULL, 0, NULL, nonce, key);
      sqlite3_bind_int64(insert, 1, (sqlite3_int64)(seq + 1 + j));
      sqlite3_bind_blob(insert, 2, nonce, sizeof nonce, SQLITE_STATIC);
      sqlite3_bind_blob(insert, 3, sealed.data, (int)sealed_length, SQLITE_STATIC);
      if (sqlite3_step(insert) != SQLITE_DONE) fail(sqlite3_errmsg(db));
      sqlite3_reset(insert);
    }
    if (sqlite3_step(commit) != SQLITE_DONE) fail(sqlite3_errmsg(db));
    sqlite3_reset(commit);

    // Durable: now, and only now, the answers (and the updates).
    uint8_t frame[4 + 16];
    put_be32(frame, 8);
    for (size_t j = 0; j < batched; j++) {
      seq++;
      if (batch[j].fd < 0 || !connections[batch[j].fd].open) continue;
      put_be64(frame + 4, seq);
      append(&connections[batch[j].fd].out, frame, 12);
    }
    if (updates) {
      put_be32(frame, 16);
      put_be64(frame + 4, seq);
      put_be64(frame + 12, batched);
      for (int k = 0; k < open_count; k++) append(&connections[open_fds[k]].out, frame, 20);
      // Walked backwards: a connection that fails while flushing swaps the last one into its slot.
      for (int k = open_count - 1; k >= 0; k--)
        if (k < open_count && connections[open_fds[k]].out.length) flush(open_fds[k]);
    } else {
      for (size_t j = 0; j < batched; j++)
        if (batch[j].fd >= 0 && connections[batch[j].fd].open) flush(batch[j].fd);
    }
  }
  sqlite3_finalize(insert);
  sqlite3_finalize(begin);
  sqlite3_finalize(commit);
  sqlite3_close(db);
  unlink(argv[1]);
  return 0;
}
