// ref_load: closed-loop load on ref_daemon, as redis-benchmark -c N is on Redis: N connections,
// each with one request outstanding, the next sent as soon as its answer comes. Updates
// (frames of 16 bytes) are read and counted, not waited for.
//
// Measured in a window that starts half a second after the connections do, for SECONDS:
//   ref_load SOCKET CONNECTIONS SECONDS [PAYLOAD_BYTES=200]
// prints one line: connections=N seconds=S rt_per_s=R p50=Xus p99=Yus acks=A updates=U
// (acks: every answer read, the half second before the window and its end included).
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

typedef struct {
  int fd;
  uint64_t sent_at;
  uint8_t buffer[65536];
  size_t length;
} client;

static uint64_t now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000000000u + t.tv_nsec;
}

static int compare(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

static void send_all(int fd, const uint8_t *data, size_t length) {
  while (length > 0) {
    ssize_t n = send(fd, data, length, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) { perror("ref_load: send"); exit(1); }
    data += n;
    length -= n;
  }
}

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: ref_load SOCKET CONNECTIONS SECONDS [PAYLOAD_BYTES=200]\n");
    return 2;
  }
  int count = atoi(argv[2]);
  double seconds = atof(argv[3]);
  size_t payload = argc > 4 ? (size_t)atoi(argv[4]) : 200;
  if (count < 1 || seconds <= 0 || payload > (1 << 20)) {
    fprintf(stderr, "ref_load: CONNECTIONS ≥ 1, SECONDS > 0, PAYLOAD ≤ 1 MiB\n");
    return 2;
  }
  uint8_t *request = malloc(4 + payload);
  request[0] = payload >> 24; request[1] = payload >> 16; request[2] = payload >> 8; request[3] = payload;
  memset(request + 4, 'a', payload);

  int poller = epoll_create1(0);
  client *clients = calloc(count, sizeof *clients);
  struct sockaddr_un address = {.sun_family = AF_UNIX};
  strncpy(address.sun_path, argv[1], sizeof address.sun_path - 1);
  for (int i = 0; i < count; i++) {
    clients[i].fd = socket(AF_UNIX, SOCK_STREAM, 0);
    if (connect(clients[i].fd, (struct sockaddr *)&address, sizeof address) < 0) {
      perror("ref_load: connect");
      return 1;
    }
    struct epoll_event event = {.events = EPOLLIN, .data.u32 = i};
    epoll_ctl(poller, EPOLL_CTL_ADD, clients[i].fd, &event);
  }

  uint64_t started = now_ns();
  uint64_t from = started + 500000000u, to = from + (uint64_t)(seconds * 1e9);
  size_t latency_capacity = 1 << 16, measured = 0;
  uint64_t *latencies = malloc(latency_capacity * sizeof *latencies);
  uint64_t acks = 0, updates = 0;
  for (int i = 0; i < count; i++) {
    clients[i].sent_at = now_ns();
    send_all(clients[i].fd, request, 4 + payload);
  }
  struct epoll_event ready[256];
  while (now_ns() < to) {
    int n = epoll_wait(poller, ready, 256, 100);
    if (n < 0 && errno == EINTR) continue;
    for (int k = 0; k < n; k++) {
      client *c = &clients[ready[k].data.u32];
      ssize_t got = recv(c->fd, c->buffer + c->length, sizeof c->buffer - c->length, 0);
      if (got <= 0) {
        fprintf(stderr, "ref_load: the daemon closed a connection\n");
        return 1;
      }
      c->length += got;
      size_t at = 0;
      while (c->length - at >= 4) {
        uint8_t *p = c->buffer + at;
        uint32_t length = (uint32_t)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3];
        if (length != 8 && length != 16) {
          fprintf(stderr, "ref_load: a frame of %u bytes is neither an answer nor an update\n", length);
          return 1;
        }
        if (c->length - at < 4 + length) break;
        at += 4 + length;
        if (length == 16) { updates++; continue; }
        uint64_t now = now_ns();
        acks++;
        if (now >= from && now < to) {
          if (measured == latency_capacity) {
            latency_capacity *= 2;
            latencies = realloc(latencies, latency_capacity * sizeof *latencies);
          }
          latencies[measured++] = now - c->sent_at;
        }
        c->sent_at = now;
        send_all(c->fd, request, 4 + payload);
      }
      memmove(c->buffer, c->buffer + at, c->length - at);
      c->length -= at;
    }
  }
  qsort(latencies, measured, sizeof *latencies, compare);
  double p50 = measured ? latencies[measured / 2] / 1000.0 : 0;
  double p99 = measured ? latencies[(size_t)(measured * 0.99)] / 1000.0 : 0;
  printf("ref_load connections=%d seconds=%.1f rt_per_s=%.0f p50=%.1fus p99=%.1fus acks=%llu updates=%llu\n", count,
         seconds, measured / seconds, p50, p99, (unsigned long long)acks, (unsigned long long)updates);
  return 0;
}
