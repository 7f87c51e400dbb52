package io.racs.proxy.s3.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.testkit.TestSeed;
import java.io.IOException;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Proves that the S3 server serves real requests on every transport this machine can run (a PUT and
 * a GET of a seeded body over a loopback socket, byte-exact), that {@code auto} comes to epoll
 * where epoll is available and to NIO where it is not, and that a native transport asked for on a
 * machine that cannot run it refuses to start with one line naming it and Netty's reason, instead
 * of falling back. Which branch each transport takes here is printed, so that no case passes
 * unseen.
 */
class S3ServerTransportTest {
  private static final int TIMEOUT_MILLIS = 60_000;

  @ParameterizedTest(name = "{0}")
  @EnumSource(Transport.class)
  void start_onEachTransport_servesWhereAvailableElseRefusesInOneLine(Transport asked)
      throws Exception {
    if (!EventLoops.available(asked)) {
      System.out.println(asked.word() + ": not available here, the start must refuse it");
      assertThatThrownBy(() -> WireServer.start(asked))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageStartingWith(
              "transport: " + asked.word() + " is not available on this machine")
          .hasMessageEndingWith("(expected: one it has: " + availableWords() + ")")
          .hasMessageNotContaining("\n");
      return;
    }
    System.out.println(asked.word() + ": available here, serving on it");
    try (WireServer wire = WireServer.start(asked)) {
      Transport expected =
          asked == Transport.AUTO
              ? (EventLoops.available(Transport.EPOLL) ? Transport.EPOLL : Transport.NIO)
              : asked;
      assertThat(wire.server().transport()).isEqualTo(expected);
      roundTrip(wire, asked);
    }
  }

  @Test
  void words_nameEveryTransportAsTheConfigurationSpellsIt() {
    assertThat(Transport.words()).isEqualTo("auto, epoll, io_uring or nio");
    for (Transport t : Transport.values()) {
      assertThat(Transport.of(t.word())).isEqualTo(t);
    }
    assertThatThrownBy(() -> Transport.of("kqueue"))
        .hasMessage("kqueue (expected: auto, epoll, io_uring or nio)");
  }

  /**
   * PUTs a seeded body of more than a stripe (not a whole number of them), GETs it back. The first
   * request of a cold JVM on a busy machine may take seconds, hence the generous read timeout.
   */
  private static void roundTrip(WireServer wire, Transport transport) throws IOException {
    wire.store().createBucket("transports");
    long seed = TestSeed.get();
    byte[] body = S3Fixture.random(seed, (1 << 20) + 4099);
    byte[] put =
        WireRequests.concat(
            WireServer.signedHead(
                "PUT", "/transports/k", Map.of("Content-Length", Integer.toString(body.length))),
            body);
    assertThat(wire.exchangeOne(put, TIMEOUT_MILLIS).status())
        .as("PUT on %s", transport)
        .isEqualTo(200);
    WireServer.Response get =
        wire.exchangeOne(WireServer.signedHead("GET", "/transports/k", Map.of()), TIMEOUT_MILLIS);
    assertThat(get.status()).as("GET on %s", transport).isEqualTo(200);
    assertThat(get.body())
        .as("GET on %s returns the bytes PUT (seed %d)", transport, seed)
        .isEqualTo(body);
  }

  private static String availableWords() {
    StringBuilder words = new StringBuilder();
    for (Transport t : Transport.values()) {
      if (EventLoops.available(t)) {
        words.append(words.isEmpty() ? "" : ", ").append(t.word());
      }
    }
    return words.toString();
  }
}
