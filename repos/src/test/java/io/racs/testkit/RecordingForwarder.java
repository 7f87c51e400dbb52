package io.racs.testkit;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP forwarder on a free port of 127.0.0.1 that passes every byte, unchanged, to one HTTP server
 * and back, and records the head (method, target, headers) of each HTTP/1.1 request it forwards, so
 * a test can see what a client really put on the wire. Bytes are not altered, so signatures over
 * the Host header stay valid: the client signs the forwarder's address and the server checks that.
 *
 * <p>Requests are framed by {@code Content-Length} or {@code Transfer-Encoding: chunked}, and
 * persistent connections work; {@code Expect: 100-continue} passes through, since the server's
 * interim answer flows back while the forwarder waits for the body. Each connection uses two
 * virtual threads. Closing the forwarder closes every connection.
 */
public final class RecordingForwarder implements AutoCloseable {
  /** One recorded request head; header names are lower case, in arrival order. */
  public record Request(String method, String target, Map<String, String> headers) {
    /** Whether any header's name starts with {@code prefix} (lower case). */
    public boolean hasHeaderStartingWith(String prefix) {
      return headers.keySet().stream().anyMatch(name -> name.startsWith(prefix));
    }

    @Override
    public String toString() {
      return method + " " + target + " " + headers.keySet();
    }
  }

  private final ServerSocket listener;
  private final String targetHost;
  private final int targetPort;
  private final List<Request> requests = new CopyOnWriteArrayList<>();
  private final List<Socket> sockets = new CopyOnWriteArrayList<>();

  private RecordingForwarder(URI target) throws IOException {
    this.targetHost = target.getHost();
    this.targetPort = target.getPort();
    this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    Thread.ofVirtual().name("forwarder-accept").start(this::acceptLoop);
  }

  /** Starts forwarding to the server at {@code target} (scheme, host and port are used). */
  public static RecordingForwarder to(URI target) throws IOException {
    return new RecordingForwarder(target);
  }

  /** The URL to give the client instead of the server's. */
  public URI endpoint() {
    return URI.create("http://127.0.0.1:" + listener.getLocalPort());
  }

  /** Every request head forwarded so far, in order. */
  public List<Request> requests() {
    return List.copyOf(requests);
  }

  /** Forgets the requests recorded so far. */
  public void clear() {
    requests.clear();
  }

  private void acceptLoop() {
    try {
      while (true) {
        Socket client = listener.accept();
        Socket server = new Socket(targetHost, targetPort);
        sockets.add(client);
        sockets.add(server);
        Thread.ofVirtual().start(() -> pump(server, client));
        Thread.ofVirtual().start(() -> forwardRequests(client, server));
      }
    } catch (IOException e) {
      // Closed.
    }
  }

  /** Server to client: raw bytes. */
  private static void pump(Socket from, Socket to) {
    try (from;
        to) {
      from.getInputStream().transferTo(to.getOutputStream());
    } catch (IOException e) {
      // Either side went away; closing both ends the other direction too.
    }
  }

  /** Client to server: request by request, recording each head. */
  private void forwardRequests(Socket client, Socket server) {
    try (client;
        server) {
      InputStream in = client.getInputStream();
      OutputStream out = server.getOutputStream();
      while (true) {
        byte[] head = readHead(in);
        if (head == null) {
          return;
        }
        Request request = parse(head);
        requests.add(request);
        out.write(head);
        String transfer = request.headers().getOrDefault("transfer-encoding", "");
        if (transfer.toLowerCase(Locale.ROOT).contains("chunked")) {
          copyChunked(in, out);
        } else {
          copy(in, out, Long.parseLong(request.headers().getOrDefault("content-length", "0")));
        }
        out.flush();
      }
    } catch (IOException e) {
      // Either side went away.
    }
  }

  /** The bytes up to and including the blank line; null at a clean end of the stream. */
  private static byte[] readHead(InputStream in) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    int matched = 0;
    byte[] end = {'\r', '\n', '\r', '\n'};
    while (matched < end.length) {
      int b = in.read();
      if (b < 0) {
        if (head.size() == 0) {
          return null;
        }
        throw new IOException("connection closed inside a request head");
      }
      head.write(b);
      matched = b == end[matched] ? matched + 1 : (b == '\r' ? 1 : 0);
    }
    return head.toByteArray();
  }

  private static Request parse(byte[] head) {
    String[] lines = new String(head, StandardCharsets.ISO_8859_1).split("\r\n");
    String[] requestLine = lines[0].split(" ", 3);
    Map<String, String> headers = new LinkedHashMap<>();
    for (int i = 1; i < lines.length; i++) {
      int colon = lines[i].indexOf(':');
      if (colon > 0) {
        headers.put(
            lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT),
            lines[i].substring(colon + 1).trim());
      }
    }
    return new Request(requestLine[0], requestLine.length > 1 ? requestLine[1] : "", headers);
  }

  private static void copy(InputStream in, OutputStream out, long length) throws IOException {
    byte[] buffer = new byte[64 << 10];
    long left = length;
    while (left > 0) {
      int n = in.read(buffer, 0, (int) Math.min(buffer.length, left));
      if (n < 0) {
        throw new IOException("connection closed inside a request body");
      }
      out.write(buffer, 0, n);
      left -= n;
    }
  }

  /** Copies a chunked body verbatim: each size line and chunk, then the trailer section. */
  private static void copyChunked(InputStream in, OutputStream out) throws IOException {
    while (true) {
      String sizeLine = readLine(in, out);
      int semicolon = sizeLine.indexOf(';');
      long size =
          Long.parseLong((semicolon < 0 ? sizeLine : sizeLine.substring(0, semicolon)).trim(), 16);
      if (size == 0) {
        while (!readLine(in, out).isEmpty()) {
          // Trailer fields, passed on as they are.
        }
        return;
      }
      copy(in, out, size + 2); // the chunk and its CRLF
    }
  }

  /** Reads one CRLF-terminated line, writing it on as read; returns it without the CRLF. */
  private static String readLine(InputStream in, OutputStream out) throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    int previous = -1;
    while (true) {
      int b = in.read();
      if (b < 0) {
        throw new IOException("connection closed inside a chunked body");
      }
      out.write(b);
      if (previous == '\r' && b == '\n') {
        byte[] bytes = line.toByteArray();
        return new String(bytes, 0, bytes.length - 1, StandardCharsets.ISO_8859_1);
      }
      line.write(b);
      previous = b;
    }
  }

  @Override
  public void close() throws IOException {
    listener.close();
    List<IOException> failures = new ArrayList<>();
    for (Socket socket : sockets) {
      try {
        socket.close();
      } catch (IOException e) {
        failures.add(e);
      }
    }
    if (!failures.isEmpty()) {
      throw failures.getFirst();
    }
  }
}
