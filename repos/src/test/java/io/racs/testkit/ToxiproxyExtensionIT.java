package io.racs.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.repos.emulator.Toxic;
import io.racs.repos.emulator.Toxiproxy;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Proves the test kit's Toxiproxy server and client do what the wire-fault tests rely on, over a
 * real TCP upstream in this JVM (each connection is sent {@link #PAYLOAD_BYTES} bytes, then
 * whatever it sends is echoed): bytes pass unchanged; latency delays them; a disabled proxy refuses
 * connections and an enabled one takes them again on the same port; {@code limit_data} closes after
 * its bytes; a half-open link sends nothing and closes nothing; {@code reset_peer} resets; and the
 * extension's reset after each test leaves no toxic behind.
 */
class ToxiproxyExtensionIT {
  @RegisterExtension static final ToxiproxyExtension TOXIPROXY = new ToxiproxyExtension();

  private static final int PAYLOAD_BYTES = 64 * 1024;
  private static final byte[] PAYLOAD = SeededBytes.bytes(7, PAYLOAD_BYTES);
  private static final AtomicInteger NAMES = new AtomicInteger();

  private static ServerSocket upstream;
  private static Thread acceptor;

  @BeforeAll
  static void startUpstream() throws IOException {
    upstream = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    acceptor =
        Thread.ofPlatform()
            .name("toxiproxy-it-upstream")
            .start(
                () -> {
                  try {
                    while (true) {
                      Socket socket = upstream.accept();
                      Thread.ofVirtual().start(() -> serve(socket));
                    }
                  } catch (IOException e) {
                    // Closed after the last test.
                  }
                });
  }

  private static void serve(Socket socket) {
    try (socket) {
      OutputStream out = socket.getOutputStream();
      out.write(PAYLOAD);
      out.flush();
      socket.getInputStream().transferTo(out);
    } catch (IOException e) {
      // The client or the proxy went away: nothing to serve.
    }
  }

  @AfterAll
  static void stopUpstream() throws Exception {
    upstream.close();
    acceptor.join();
  }

  private static Toxiproxy.Proxy proxy() {
    return TOXIPROXY
        .client()
        .create(
            "upstream-" + NAMES.incrementAndGet(),
            new InetSocketAddress("127.0.0.1", upstream.getLocalPort()));
  }

  private static Socket connect(Toxiproxy.Proxy proxy) throws IOException {
    Socket socket = new Socket();
    socket.connect(proxy.listen(), 2_000);
    socket.setSoTimeout(5_000);
    return socket;
  }

  @Test
  void bytes_withoutToxics_passUnchanged() throws IOException {
    Toxiproxy.Proxy proxy = proxy();
    try (Socket socket = connect(proxy)) {
      assertThat(socket.getInputStream().readNBytes(PAYLOAD_BYTES)).isEqualTo(PAYLOAD);
      socket.getOutputStream().write(new byte[] {1, 2, 3});
      assertThat(socket.getInputStream().readNBytes(3)).containsExactly(1, 2, 3);
    }
  }

  @Test
  void latency_delaysTheFirstBytesByAtLeastLatencyLessJitter() throws IOException {
    Toxiproxy.Proxy proxy = proxy();
    proxy.add(Toxic.latency(Duration.ofMillis(300), Duration.ofMillis(50)));
    long started = System.nanoTime();
    try (Socket socket = connect(proxy)) {
      assertThat(socket.getInputStream().readNBytes(PAYLOAD_BYTES)).isEqualTo(PAYLOAD);
    }
    assertThat(Duration.ofNanos(System.nanoTime() - started))
        .isGreaterThanOrEqualTo(Duration.ofMillis(250));
  }

  @Test
  void disable_refusesConnections_andEnableTakesThemAgainOnTheSamePort() throws IOException {
    Toxiproxy.Proxy proxy = proxy();
    proxy.disable();
    assertThatThrownBy(() -> connect(proxy).close()).isInstanceOf(ConnectException.class);
    proxy.enable();
    try (Socket socket = connect(proxy)) {
      assertThat(socket.getInputStream().readNBytes(PAYLOAD_BYTES)).isEqualTo(PAYLOAD);
    }
  }

  @Test
  void limitData_closesAfterItsBytes() throws IOException {
    Toxiproxy.Proxy proxy = proxy();
    proxy.add(Toxic.limitData(1000));
    try (Socket socket = connect(proxy)) {
      byte[] received = socket.getInputStream().readAllBytes();
      assertThat(received).hasSizeLessThanOrEqualTo(1000);
      assertThat(received).isEqualTo(Arrays.copyOf(PAYLOAD, received.length));
    }
  }

  @Test
  void halfOpen_sendsNothingAndClosesNothing() throws IOException {
    Toxiproxy.Proxy proxy = proxy();
    proxy.add(Toxic.halfOpen());
    try (Socket socket = connect(proxy)) {
      socket.setSoTimeout(1_000);
      InputStream in = socket.getInputStream();
      assertThatThrownBy(in::read).isInstanceOf(SocketTimeoutException.class);
    }
  }

  @Test
  void resetPeer_resetsTheConnection() throws IOException {
    Toxiproxy.Proxy proxy = proxy();
    proxy.add(Toxic.resetPeer(Duration.ZERO));
    // Toxiproxy resets as soon as it accepts, so the RST can reach the client before its connect
    // has returned (then connect throws it) or after (then the read does): either is the reset.
    assertThatThrownBy(
            () -> {
              try (Socket socket = connect(proxy)) {
                socket.getInputStream().readAllBytes();
              }
            })
        .isInstanceOf(SocketException.class)
        .hasMessageContaining("reset");
  }

  @Test
  void reset_removesEveryToxic() throws IOException {
    Toxiproxy.Proxy proxy = proxy();
    proxy.add(Toxic.halfOpen());
    proxy.add(Toxic.bandwidth(1).upstream());
    TOXIPROXY.client().reset();
    try (Socket socket = connect(proxy)) {
      assertThat(socket.getInputStream().readNBytes(PAYLOAD_BYTES)).isEqualTo(PAYLOAD);
    }
  }

  /** Fails with Toxiproxy's own {@code POST /reset}: the server panics on the next toxic added. */
  @Test
  void reset_whileAConnectionClosesSlowly_leavesTheServerWorking() throws IOException {
    Toxiproxy.Proxy proxy = proxy();
    proxy.add(Toxic.latency(Duration.ofMillis(20), Duration.ZERO));
    proxy.add(Toxic.slowClose(Duration.ofSeconds(2)));
    try (Socket socket = connect(proxy)) {
      assertThat(socket.getInputStream().readNBytes(PAYLOAD_BYTES)).isEqualTo(PAYLOAD);
    } // closing now, for 2 s
    TOXIPROXY.client().reset();
    proxy.add(Toxic.bandwidth(10_000));
    try (Socket socket = connect(proxy)) {
      assertThat(socket.getInputStream().readNBytes(PAYLOAD_BYTES)).isEqualTo(PAYLOAD);
    }
    assertThat(TOXIPROXY.process().isRunning()).as("toxiproxy: %s", TOXIPROXY.log()).isTrue();
  }
}
