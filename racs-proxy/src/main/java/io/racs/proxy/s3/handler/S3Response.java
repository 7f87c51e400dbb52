package io.racs.proxy.s3.handler;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What a handler answers: a status, headers, and a body that is either small bytes (XML) or a
 * stream of known length (an object), which the connection writes with backpressure.
 */
public final class S3Response {
  private final int status;
  private final List<Map.Entry<String, String>> headers = new ArrayList<>();
  private byte[] bytes = new byte[0];
  private InputStream stream;
  private long streamLength;
  private Runnable onClose = () -> {};

  private S3Response(int status) {
    this.status = status;
  }

  /** A response with {@code status} and no body yet. */
  public static S3Response status(int status) {
    return new S3Response(status);
  }

  /** 200 with an XML document. */
  public static S3Response xml(byte[] document) {
    return status(200).header("Content-Type", "application/xml").body(document);
  }

  /** Adds a header (several with one name are allowed). */
  public S3Response header(String name, String value) {
    if (value != null) {
      headers.add(Map.entry(name, value));
    }
    return this;
  }

  /** Sets a header: every earlier value of {@code name} (in any case) is removed. */
  public S3Response setHeader(String name, String value) {
    headers.removeIf(h -> h.getKey().equalsIgnoreCase(name));
    return header(name, value);
  }

  /** A small body held in memory. */
  public S3Response body(byte[] body) {
    this.bytes = body;
    this.stream = null;
    return this;
  }

  /** A UTF-8 text body. */
  public S3Response body(String text) {
    return body(text.getBytes(StandardCharsets.UTF_8));
  }

  /** A streamed body of exactly {@code length} bytes; {@code onClose} runs when it is done. */
  public S3Response stream(InputStream body, long length, Runnable onClose) {
    this.stream = body;
    this.streamLength = length;
    this.onClose = onClose;
    return this;
  }

  public int status() {
    return status;
  }

  public List<Map.Entry<String, String>> headers() {
    return headers;
  }

  public byte[] bytes() {
    return bytes;
  }

  public InputStream stream() {
    return stream;
  }

  public long streamLength() {
    return streamLength;
  }

  public Runnable onClose() {
    return onClose;
  }

  /** Bytes the body holds. */
  public long contentLength() {
    return stream != null ? streamLength : bytes.length;
  }
}
