package io.racs.proxy.s3.form;

import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a {@code multipart/form-data} body part by part without holding it: the fields before the
 * file are small and read whole, the file part is handed out as a stream that ends at the next
 * boundary. Memory is one 64 KiB buffer.
 *
 * <p>Not thread-safe. A body that is not well-formed multipart is {@code MalformedPOSTRequest} (as
 * an {@link IOException} carrying the S3 error when it happens inside the file stream).
 */
public final class MultipartForm {
  private static final int BUFFER_BYTES = 64 * 1024;
  private static final int MAX_HEADER_BYTES = 8 * 1024;
  private static final Pattern BOUNDARY =
      Pattern.compile("(?i);\\s*boundary=(\"([^\"]+)\"|([^;\\s]+))");
  private static final Pattern NAME = Pattern.compile("(?i)(?:^|;)\\s*name=\"([^\"]*)\"");
  private static final Pattern FILENAME = Pattern.compile("(?i);\\s*filename=\"([^\"]*)\"");

  /** One part's head: its field name, the file name if it is a file, its content type. */
  public record Part(String name, String fileName, String contentType) {}

  private final InputStream in;
  private final byte[] delimiter;
  private final byte[] buf = new byte[BUFFER_BYTES];
  private int pos;
  private int limit;
  private boolean eof;
  private boolean atDelimiter;
  private boolean finished;

  private MultipartForm(InputStream in, String boundary) {
    this.in = in;
    this.delimiter = ("\r\n--" + boundary).getBytes(StandardCharsets.ISO_8859_1);
    // The first boundary has no CRLF before it: pretend it has, so every delimiter looks alike.
    buf[0] = '\r';
    buf[1] = '\n';
    limit = 2;
  }

  /**
   * A reader of {@code body}, whose boundary {@code contentType} names.
   *
   * @throws S3Exception {@code MalformedPOSTRequest} without a usable boundary
   */
  public static MultipartForm of(InputStream body, String contentType) {
    Matcher m = BOUNDARY.matcher(contentType == null ? "" : contentType);
    if (contentType == null
        || !contentType.strip().toLowerCase(Locale.ROOT).startsWith("multipart/form-data")
        || !m.find()) {
      throw malformed();
    }
    String boundary = m.group(2) != null ? m.group(2) : m.group(3);
    if (boundary.isEmpty() || boundary.length() > 70) {
      throw malformed();
    }
    return new MultipartForm(body, boundary);
  }

  /** True for a {@code multipart/form-data} content type. */
  public static boolean isForm(String contentType) {
    return contentType != null
        && contentType.strip().toLowerCase(Locale.ROOT).startsWith("multipart/form-data");
  }

  /**
   * Skips what is left of the current part and reads the next part's head; {@code null} after the
   * closing boundary.
   */
  public Part next() throws IOException {
    if (finished) {
      return null;
    }
    byte[] skip = new byte[8192];
    while (read(skip, 0, skip.length) >= 0) {
      // Discards the preamble or the rest of the part.
    }
    pos += delimiter.length;
    atDelimiter = false;
    ensure(2);
    if (limit - pos >= 2 && buf[pos] == '-' && buf[pos + 1] == '-') {
      finished = true;
      return null;
    }
    String line = line(); // the rest of the boundary line: whitespace only
    if (!line.isBlank()) {
      throw malformed();
    }
    String name = null;
    String fileName = null;
    String contentType = null;
    int headerBytes = 0;
    for (String h = line(); !h.isEmpty(); h = line()) {
      headerBytes += h.length();
      if (headerBytes > MAX_HEADER_BYTES) {
        throw malformed();
      }
      int colon = h.indexOf(':');
      if (colon <= 0) {
        throw malformed();
      }
      String header = h.substring(0, colon).strip().toLowerCase(Locale.ROOT);
      String value = h.substring(colon + 1).strip();
      if (header.equals("content-disposition")) {
        Matcher n = NAME.matcher(value);
        if (!value.toLowerCase(Locale.ROOT).startsWith("form-data") || !n.find()) {
          throw malformed();
        }
        name = n.group(1);
        Matcher f = FILENAME.matcher(value);
        fileName = f.find() ? f.group(1) : null;
      } else if (header.equals("content-type")) {
        contentType = value;
      }
    }
    if (name == null) {
      throw malformed();
    }
    return new Part(name, fileName, contentType);
  }

  /** The current part's bytes as text, refused past {@code maxBytes}. */
  public String text(int maxBytes) throws IOException {
    byte[] out = new byte[Math.min(maxBytes + 1, 1024)];
    int n = 0;
    while (true) {
      if (n == out.length) {
        if (n > maxBytes) {
          throw S3Exception.of(
              S3ErrorCode.MALFORMED_POST_REQUEST, "A form field is larger than " + maxBytes + ".");
        }
        out = Arrays.copyOf(out, Math.min(out.length * 2, maxBytes + 1));
      }
      int r = read(out, n, out.length - n);
      if (r < 0) {
        break;
      }
      n += r;
    }
    if (n > maxBytes) {
      throw S3Exception.of(
          S3ErrorCode.MALFORMED_POST_REQUEST, "A form field is larger than " + maxBytes + ".");
    }
    return new String(out, 0, n, StandardCharsets.UTF_8);
  }

  /** The current part's bytes as a stream that ends where the part does. */
  public InputStream stream() {
    return new InputStream() {
      @Override
      public int read() throws IOException {
        byte[] one = new byte[1];
        int n = read(one, 0, 1);
        return n < 0 ? -1 : one[0] & 0xff;
      }

      @Override
      public int read(byte[] b, int off, int len) throws IOException {
        try {
          return MultipartForm.this.read(b, off, len);
        } catch (S3Exception e) {
          throw new IOException(e.getMessage(), e);
        }
      }
    };
  }

  /** Reads the current part; -1 at its end (the delimiter is then at {@code pos}). */
  private int read(byte[] b, int off, int len) throws IOException {
    if (atDelimiter || finished) {
      return -1;
    }
    if (len == 0) {
      return 0;
    }
    while (true) {
      ensure(delimiter.length);
      int found = indexOfDelimiter();
      if (found == pos) {
        atDelimiter = true;
        return -1;
      }
      int safe = found >= 0 ? found : limit - delimiter.length + 1;
      if (safe > pos) {
        int n = Math.min(len, safe - pos);
        System.arraycopy(buf, pos, b, off, n);
        pos += n;
        return n;
      }
      if (eof) {
        throw malformed(); // the body ended inside a part
      }
      fill();
    }
  }

  private int indexOfDelimiter() {
    outer:
    for (int i = pos; i <= limit - delimiter.length; i++) {
      for (int j = 0; j < delimiter.length; j++) {
        if (buf[i + j] != delimiter[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }

  /** Reads until {@code bytes} are buffered past {@code pos}, or the body ends. */
  private void ensure(int bytes) throws IOException {
    while (limit - pos < bytes && !eof) {
      fill();
    }
  }

  private void fill() throws IOException {
    if (pos > 0) {
      System.arraycopy(buf, pos, buf, 0, limit - pos);
      limit -= pos;
      pos = 0;
    }
    if (limit == buf.length) {
      return; // full: the caller consumes before asking again
    }
    int n = in.read(buf, limit, buf.length - limit);
    if (n < 0) {
      eof = true;
    } else {
      limit += n;
    }
  }

  /** One header line, as UTF-8 (browsers send non-ASCII file names so), without its CRLF. */
  private String line() throws IOException {
    byte[] raw = new byte[MAX_HEADER_BYTES];
    int n = 0;
    while (true) {
      ensure(1);
      if (limit == pos) {
        throw malformed();
      }
      byte c = buf[pos++];
      if (c == '\n') {
        break;
      }
      if (n == raw.length) {
        throw malformed();
      }
      raw[n++] = c;
    }
    if (n > 0 && raw[n - 1] == '\r') {
      n--;
    }
    return new String(raw, 0, n, StandardCharsets.UTF_8);
  }

  private static S3Exception malformed() {
    return S3Exception.of(S3ErrorCode.MALFORMED_POST_REQUEST);
  }
}
