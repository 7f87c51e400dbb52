package io.racs.bench.object.target.s3;

import io.racs.bench.object.target.Target;
import io.racs.proxy.s3.auth.SigV4;
import io.racs.proxy.s3.http.PercentCodec;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A benchmark client's own S3 client: path-style requests on one persistent HTTP/1.1 connection,
 * SigV4-signed, with PUT bodies either signed chunk by chunk ({@code
 * STREAMING-AWS4-HMAC-SHA256-PAYLOAD}, 64 KiB chunks, as minio-go sends them) or sent as they are
 * ({@code UNSIGNED-PAYLOAD}); no checksums, no {@code Expect: 100-continue}, no retries. It exists
 * because the AWS SDK's per-request machinery cost the load generator more CPU per operation than
 * warp's whole client, and took the better part of a minute of JIT compilation to reach its steady
 * state on a small machine (docs/bench/vs-warp/README.md).
 *
 * <p>Errors: an error answer is an {@link S3ErrorException} with the status and the error XML's
 * {@code Code}; a request without an answer is an {@link S3TransportException}; a body that breaks
 * while the caller reads it throws {@link IOException}. Not thread-safe: one per benchmark client.
 */
public final class S3HttpClient implements Target.Client {
  /** The chunk size of a signed streaming body: minio-go's. */
  static final int CHUNK_BYTES = 64 * 1024;

  private static final String UNSIGNED_PAYLOAD = "UNSIGNED-PAYLOAD";
  private static final String STREAMING = "STREAMING-AWS4-HMAC-SHA256-PAYLOAD";
  private static final DateTimeFormatter AMZ_DATE =
      DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);
  private static final Pattern CODE = Pattern.compile("<Code>([^<]*)</Code>");
  private static final Pattern MESSAGE = Pattern.compile("<Message>([^<]*)</Message>");
  private static final Pattern KEY_COUNT = Pattern.compile("<KeyCount>(\\d+)</KeyCount>");

  private final Http1Connection connection;
  private final S3Signer signer;
  private final String basePath;
  private final String bucket;
  private final boolean signedPayload;
  private final byte[] buffer = new byte[CHUNK_BYTES];

  /** Room for the longest chunk head: five hex digits, the extension, 64 hex digits, CRLF. */
  private static final int FRAME_HEAD_BYTES = 5 + 17 + 64 + 2;

  private final byte[] frame = new byte[FRAME_HEAD_BYTES + CHUNK_BYTES + 2];

  /**
   * A client of the bucket {@code bucket} at {@code endpoint} ({@code http} or {@code https}, with
   * an optional base path); opens no connection yet.
   *
   * @param signedPayload sign PUT bodies chunk by chunk, else send them unsigned
   */
  public S3HttpClient(
      URI endpoint,
      String bucket,
      String accessKey,
      String secretKey,
      String region,
      boolean signedPayload) {
    boolean tls = "https".equalsIgnoreCase(endpoint.getScheme());
    int port = endpoint.getPort() > 0 ? endpoint.getPort() : tls ? 443 : 80;
    this.connection = new Http1Connection(endpoint.getHost(), port, tls, 10_000, 120_000);
    this.signer = new S3Signer(accessKey, secretKey, region);
    String path = endpoint.getRawPath() == null ? "" : endpoint.getRawPath();
    this.basePath = path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
    this.bucket = bucket;
    this.signedPayload = signedPayload;
  }

  /** Creates the bucket unless it exists (and is this account's). */
  public void ensureBucket() {
    String path = basePath + "/" + PercentCodec.uriEncodeComponent(bucket);
    Http1Connection.Response head = exchange("HEAD", path, "", List.of(), null, 0);
    if (head.status() == 200) {
      return;
    }
    if (head.status() != 404) {
      throw new S3ErrorException(head.status(), null, "HEAD bucket " + bucket);
    }
    Http1Connection.Response create =
        exchange("PUT", path, "", List.of("content-length", "0"), null, 0);
    if (create.status() != 200) {
      S3ErrorException e = error(create);
      if (!"BucketAlreadyOwnedByYou".equals(e.code())) {
        throw e;
      }
    } else {
      discard(create);
    }
  }

  @Override
  public void put(String key, InputStream body, long lengthBytes) {
    String path = objectPath(key);
    Http1Connection.Response response;
    if (signedPayload) {
      response =
          exchange(
              "PUT",
              path,
              "",
              List.of(
                  "content-encoding",
                  "aws-chunked",
                  "content-length",
                  Long.toString(encodedLength(lengthBytes)),
                  "x-amz-decoded-content-length",
                  Long.toString(lengthBytes)),
              body,
              lengthBytes);
    } else {
      response =
          exchange(
              "PUT",
              path,
              "",
              List.of("content-length", Long.toString(lengthBytes)),
              body,
              lengthBytes);
    }
    if (response.status() != 200) {
      throw error(response);
    }
    discard(response);
  }

  @Override
  public InputStream get(String key, long offset, long lengthBytes) {
    if (lengthBytes == 0) {
      // S3 cannot express an empty range; an empty read needs no body.
      if (!head(key)) {
        throw new S3ErrorException(404, "NoSuchKey", key);
      }
      return InputStream.nullInputStream();
    }
    String range =
        lengthBytes < 0
            ? (offset == 0 ? null : "bytes=" + offset + "-")
            : "bytes=" + offset + "-" + (offset + lengthBytes - 1);
    Http1Connection.Response response =
        exchange(
            "GET",
            objectPath(key),
            "",
            range == null ? List.of() : List.of("range", range),
            null,
            0);
    if (response.status() != 200 && response.status() != 206) {
      throw error(response);
    }
    return response.body();
  }

  @Override
  public boolean head(String key) {
    Http1Connection.Response response = exchange("HEAD", objectPath(key), "", List.of(), null, 0);
    if (response.status() == 200) {
      return true;
    }
    if (response.status() == 404) {
      return false;
    }
    throw new S3ErrorException(response.status(), null, "HEAD " + key);
  }

  @Override
  public int list(String prefix, int maxKeys) {
    String query =
        "list-type=2&max-keys="
            + maxKeys
            + "&prefix="
            + PercentCodec.uriEncodeComponent(prefix == null ? "" : prefix);
    Http1Connection.Response response =
        exchange(
            "GET",
            basePath + "/" + PercentCodec.uriEncodeComponent(bucket),
            query,
            List.of(),
            null,
            0);
    if (response.status() != 200) {
      throw error(response);
    }
    String xml = text(response);
    Matcher count = KEY_COUNT.matcher(xml);
    if (count.find()) {
      return Integer.parseInt(count.group(1));
    }
    int keys = 0;
    for (int i = xml.indexOf("<Contents>"); i >= 0; i = xml.indexOf("<Contents>", i + 1)) {
      keys++;
    }
    return keys;
  }

  @Override
  public void delete(String key) {
    Http1Connection.Response response = exchange("DELETE", objectPath(key), "", List.of(), null, 0);
    if (response.status() != 204 && response.status() != 200) {
      throw error(response);
    }
    discard(response);
  }

  @Override
  public void close() {
    connection.close();
  }

  /** The {@code Content-Length} of a signed streaming body of {@code length} data bytes. */
  static long encodedLength(long length) {
    long full = length / CHUNK_BYTES;
    long rest = length % CHUNK_BYTES;
    return full * frameLength(CHUNK_BYTES) + (rest > 0 ? frameLength(rest) : 0) + frameLength(0);
  }

  private static long frameLength(long data) {
    // hex-size ";chunk-signature=" 64-hex CRLF data CRLF
    return Long.toHexString(data).length() + 17 + 64 + 2 + data + 2;
  }

  private String objectPath(String key) {
    return basePath
        + "/"
        + PercentCodec.uriEncodeComponent(bucket)
        + "/"
        + PercentCodec.uriEncodePath(key);
  }

  /**
   * Sends one request: signs {@code headers} (lower-case name, value pairs) with {@code host},
   * {@code x-amz-date} and {@code x-amz-content-sha256}, writes {@code body} when given, and reads
   * the response head.
   */
  private Http1Connection.Response exchange(
      String method,
      String path,
      String query,
      List<String> headers,
      InputStream body,
      long bodyBytes) {
    String amzDate = AMZ_DATE.format(Instant.now());
    String payloadHash;
    if (body != null) {
      payloadHash = signedPayload ? STREAMING : UNSIGNED_PAYLOAD;
    } else {
      // minio-go signs empty bodies with the hash of nothing; unsigned mode says so instead.
      payloadHash = signedPayload ? SigV4.EMPTY_SHA256 : UNSIGNED_PAYLOAD;
    }
    TreeMap<String, String> signed = new TreeMap<>();
    for (int i = 0; i < headers.size(); i += 2) {
      signed.put(headers.get(i), headers.get(i + 1));
    }
    signed.put("host", connection.hostHeader());
    signed.put("x-amz-content-sha256", payloadHash);
    signed.put("x-amz-date", amzDate);
    S3Signer.Signature signature = signer.sign(method, path, query, signed, amzDate);
    List<String> sent = new ArrayList<>(signed.size() * 2 + 2);
    for (Map.Entry<String, String> h : signed.entrySet()) {
      if (!h.getKey().equals("host")) {
        sent.add(h.getKey());
        sent.add(h.getValue());
      }
    }
    sent.add("authorization");
    sent.add(signature.authorization());
    try {
      OutputStream out =
          connection.request(method, query.isEmpty() ? path : path + "?" + query, sent);
      if (body != null) {
        if (signedPayload) {
          writeChunks(out, body, bodyBytes, amzDate, signature.signature());
        } else {
          copy(body, out, bodyBytes);
        }
      }
      return connection.response(method.equals("HEAD"));
    } catch (IOException e) {
      connection.close();
      throw new S3TransportException(
          method + " " + path + ": " + (e.getMessage() != null ? e.getMessage() : e), e);
    }
  }

  private void copy(InputStream body, OutputStream out, long length) throws IOException {
    for (long left = length; left > 0; ) {
      int n = body.read(buffer, 0, (int) Math.min(buffer.length, left));
      if (n < 0) {
        throw new IOException("the body ended " + left + " bytes early");
      }
      out.write(buffer, 0, n);
      left -= n;
    }
  }

  /**
   * Writes the body as signed chunks. Each frame ({@code size;chunk-signature=...}, the data, CRLF)
   * is assembled in one array and written at once: the data is read in after room for the longest
   * head, and the head is put right before it.
   */
  private void writeChunks(
      OutputStream out, InputStream body, long length, String amzDate, String seedSignature)
      throws IOException {
    String previous = seedSignature;
    long left = length;
    while (true) {
      int n = (int) Math.min(CHUNK_BYTES, left);
      for (int filled = 0; filled < n; ) {
        int r = body.read(frame, FRAME_HEAD_BYTES + filled, n - filled);
        if (r < 0) {
          throw new IOException("the body ended " + (left - filled) + " bytes early");
        }
        filled += r;
      }
      previous = signer.chunkSignature(amzDate, previous, frame, FRAME_HEAD_BYTES, n);
      byte[] head =
          (Integer.toHexString(n) + ";chunk-signature=" + previous + "\r\n")
              .getBytes(StandardCharsets.US_ASCII);
      int start = FRAME_HEAD_BYTES - head.length;
      System.arraycopy(head, 0, frame, start, head.length);
      frame[FRAME_HEAD_BYTES + n] = '\r';
      frame[FRAME_HEAD_BYTES + n + 1] = '\n';
      out.write(frame, start, head.length + n + 2);
      if (n == 0) {
        return;
      }
      left -= n;
    }
  }

  private S3ErrorException error(Http1Connection.Response response) {
    String xml;
    try {
      xml = text(response);
    } catch (S3TransportException e) {
      xml = "";
    }
    Matcher code = CODE.matcher(xml);
    Matcher message = MESSAGE.matcher(xml);
    return new S3ErrorException(
        response.status(),
        code.find() ? code.group(1) : null,
        message.find() ? message.group(1) : null);
  }

  private static String text(Http1Connection.Response response) {
    try (InputStream in = response.body()) {
      ByteArrayOutputStream all = new ByteArrayOutputStream();
      in.transferTo(all);
      return all.toString(StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new S3TransportException("reading an answer: " + e.getMessage(), e);
    }
  }

  private static void discard(Http1Connection.Response response) {
    text(response);
  }
}
