package io.racs.bench.object.target.s3;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.net.ssl.SSLSocketFactory;

/**
 * One persistent HTTP/1.1 connection to one host, as a load generator needs it and no more: a
 * request is written as one head and a body of known length, a response is read as a status, its
 * headers and a body delimited by {@code Content-Length} or chunked transfer coding. The socket
 * opens on first use and again after any failure, after {@code Connection: close}, when a response
 * body was closed before its end, or after {@link #IDLE_REOPEN_NANOS} idle; nothing is retried.
 * Buffers are 64 KiB each way, and a large read goes straight from the socket into the caller's
 * array.
 *
 * <p>Not thread-safe: one benchmark client uses one connection, one exchange at a time (a response
 * body must be closed before the next request).
 */
public final class Http1Connection implements AutoCloseable {
  private static final int BUFFER_BYTES = 64 * 1024;
  private static final int MAX_HEAD_BYTES = 64 * 1024;

  /**
   * A connection idle for longer is opened anew before the next request: servers close idle
   * connections (S3 after about 20 s, the RACS proxy after 60 s), and a request written to a
   * connection the server has just closed fails without an answer.
   */
  static final long IDLE_REOPEN_NANOS = 10_000_000_000L;

  private final String host;
  private final int port;
  private final boolean tls;
  private final int connectTimeoutMillis;
  private final int readTimeoutMillis;
  private Socket socket;
  private BufferedInputStream in;
  private BufferedOutputStream out;
  private long lastUsedNanos;

  /** A connection to {@code host:port} (TLS when {@code tls}); opens nothing yet. */
  public Http1Connection(
      String host, int port, boolean tls, int connectTimeoutMillis, int readTimeoutMillis) {
    this.host = host;
    this.port = port;
    this.tls = tls;
    this.connectTimeoutMillis = connectTimeoutMillis;
    this.readTimeoutMillis = readTimeoutMillis;
  }

  /** A response: the status, the headers (lower-case names; the last of repeated ones), a body. */
  public record Response(int status, Map<String, String> headers, InputStream body) {
    /** The header {@code name} (lower case), or null. */
    public String header(String name) {
      return headers.get(name);
    }
  }

  /**
   * Writes a request head, {@code Host} first, then {@code headers} (name, value pairs), and
   * returns the stream to write exactly the announced body to; {@link #response} sends it.
   */
  public OutputStream request(String method, String target, List<String> headers)
      throws IOException {
    long now = System.nanoTime();
    if (socket != null && now - lastUsedNanos > IDLE_REOPEN_NANOS) {
      close();
    }
    if (socket == null) {
      open();
    }
    lastUsedNanos = now;
    StringBuilder head = new StringBuilder(512);
    head.append(method).append(' ').append(target).append(" HTTP/1.1\r\n");
    head.append("Host: ").append(hostHeader()).append("\r\n");
    for (int i = 0; i < headers.size(); i += 2) {
      head.append(headers.get(i)).append(": ").append(headers.get(i + 1)).append("\r\n");
    }
    head.append("\r\n");
    try {
      out.write(head.toString().getBytes(StandardCharsets.UTF_8));
    } catch (IOException e) {
      close();
      throw e;
    }
    return new OutputStream() {
      @Override
      public void write(int b) throws IOException {
        guard(() -> out.write(b));
      }

      @Override
      public void write(byte[] b, int off, int len) throws IOException {
        guard(() -> out.write(b, off, len));
      }
    };
  }

  /** The value of the {@code Host} header: the host, and the port unless it is the scheme's. */
  public String hostHeader() {
    return port == (tls ? 443 : 80) ? host : host + ":" + port;
  }

  /**
   * Sends what was written and reads the response head. The body must be read to its end and
   * closed, or only closed (which drops the connection), before the next request. A {@code HEAD}
   * response has no body whatever its headers say.
   */
  public Response response(boolean headRequest) throws IOException {
    try {
      out.flush();
      int status = parseStatus(readLine());
      Map<String, String> headers = new HashMap<>();
      int headBytes = 0;
      for (String line = readLine(); !line.isEmpty(); line = readLine()) {
        headBytes += line.length();
        if (headBytes > MAX_HEAD_BYTES) {
          throw new IOException("response head longer than " + MAX_HEAD_BYTES + " bytes");
        }
        int colon = line.indexOf(':');
        if (colon <= 0) {
          throw new IOException("malformed response header: " + line);
        }
        headers.put(
            line.substring(0, colon).strip().toLowerCase(Locale.ROOT),
            line.substring(colon + 1).strip());
      }
      boolean keep = !"close".equalsIgnoreCase(headers.get("connection"));
      InputStream body;
      if (headRequest || status == 204 || status == 304 || status / 100 == 1) {
        body = new Body(0, keep);
      } else if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
        body = new ChunkedBody(keep);
      } else if (headers.containsKey("content-length")) {
        body = new Body(Long.parseLong(headers.get("content-length")), keep);
      } else {
        // Delimited by the end of the connection.
        body = new Body(Long.MAX_VALUE, false);
      }
      return new Response(status, headers, body);
    } catch (IOException | RuntimeException e) {
      close();
      throw e instanceof IOException io ? io : new IOException(e.getMessage(), e);
    }
  }

  @Override
  public void close() {
    if (socket != null) {
      try {
        socket.close();
      } catch (IOException ignored) {
        // Closing a broken socket has nothing left to report.
      }
      socket = null;
      in = null;
      out = null;
    }
  }

  private void open() throws IOException {
    Socket s = tls ? SSLSocketFactory.getDefault().createSocket() : new Socket();
    try {
      s.setTcpNoDelay(true);
      s.setSoTimeout(readTimeoutMillis);
      s.connect(new InetSocketAddress(host, port), connectTimeoutMillis);
    } catch (IOException e) {
      s.close();
      throw e;
    }
    socket = s;
    in = new BufferedInputStream(s.getInputStream(), BUFFER_BYTES);
    out = new BufferedOutputStream(s.getOutputStream(), BUFFER_BYTES);
  }

  private interface Io {
    void run() throws IOException;
  }

  private void guard(Io io) throws IOException {
    if (out == null) {
      throw new IOException("connection closed");
    }
    try {
      io.run();
    } catch (IOException e) {
      close();
      throw e;
    }
  }

  private static int parseStatus(String line) throws IOException {
    // HTTP/1.1 200 OK
    if (!line.startsWith("HTTP/1.") || line.length() < 12 || line.charAt(8) != ' ') {
      throw new IOException("malformed status line: " + line);
    }
    try {
      return Integer.parseInt(line.substring(9, 12));
    } catch (NumberFormatException e) {
      throw new IOException("malformed status line: " + line, e);
    }
  }

  private String readLine() throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream(64);
    while (true) {
      int b = in.read();
      if (b < 0) {
        throw new EOFException("connection closed in a response head");
      }
      if (b == '\n') {
        byte[] bytes = line.toByteArray();
        int n =
            bytes.length > 0 && bytes[bytes.length - 1] == '\r' ? bytes.length - 1 : bytes.length;
        return new String(bytes, 0, n, StandardCharsets.ISO_8859_1);
      }
      line.write(b);
      if (line.size() > MAX_HEAD_BYTES) {
        throw new IOException("response line longer than " + MAX_HEAD_BYTES + " bytes");
      }
    }
  }

  /** Called when a body ends: keeps the connection for the next exchange, or drops it. */
  private void finished(boolean complete, boolean keep) {
    if (!complete || !keep) {
      close();
    }
  }

  /** A body of {@code remaining} bytes. */
  private final class Body extends InputStream {
    private long remaining;
    private final boolean keep;
    private boolean done;

    Body(long length, boolean keep) {
      this.remaining = length;
      this.keep = keep;
      if (length == 0) {
        done = true;
        finished(true, keep);
      }
    }

    @Override
    public int read() throws IOException {
      byte[] one = new byte[1];
      int n = read(one, 0, 1);
      return n < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      if (done || remaining == 0) {
        return -1;
      }
      if (len == 0) {
        return 0;
      }
      int n;
      try {
        n = in.read(b, off, (int) Math.min(len, remaining));
      } catch (IOException e) {
        done = true;
        Http1Connection.this.close();
        throw e;
      }
      if (n < 0) {
        done = true;
        boolean delimitedByClose = remaining == Long.MAX_VALUE;
        Http1Connection.this.close();
        if (delimitedByClose) {
          return -1;
        }
        throw new EOFException("connection closed with " + remaining + " body bytes to come");
      }
      remaining -= n;
      if (remaining == 0) {
        done = true;
        finished(true, keep);
      }
      return n;
    }

    @Override
    public void close() {
      if (!done) {
        done = true;
        finished(false, keep);
      }
    }
  }

  /** A body in chunked transfer coding (chunk extensions and trailers are read and dropped). */
  private final class ChunkedBody extends InputStream {
    private final boolean keep;
    private long chunkLeft;
    private boolean done;

    ChunkedBody(boolean keep) {
      this.keep = keep;
    }

    @Override
    public int read() throws IOException {
      byte[] one = new byte[1];
      int n = read(one, 0, 1);
      return n < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      if (done) {
        return -1;
      }
      try {
        if (chunkLeft == 0) {
          String size = readLine();
          int semicolon = size.indexOf(';');
          chunkLeft =
              Long.parseLong((semicolon < 0 ? size : size.substring(0, semicolon)).strip(), 16);
          if (chunkLeft == 0) {
            while (!readLine().isEmpty()) {
              // trailers
            }
            done = true;
            finished(true, keep);
            return -1;
          }
        }
        int n = in.read(b, off, (int) Math.min(len, chunkLeft));
        if (n < 0) {
          throw new EOFException("connection closed inside a chunk");
        }
        chunkLeft -= n;
        if (chunkLeft == 0 && !readLine().isEmpty()) {
          throw new IOException("chunk not followed by CRLF");
        }
        return n;
      } catch (IOException | NumberFormatException e) {
        done = true;
        Http1Connection.this.close();
        throw e instanceof IOException io ? io : new IOException("malformed chunk size", e);
      }
    }

    @Override
    public void close() {
      if (!done) {
        done = true;
        finished(false, keep);
      }
    }
  }
}
