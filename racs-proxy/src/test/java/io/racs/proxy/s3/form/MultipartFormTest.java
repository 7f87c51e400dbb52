package io.racs.proxy.s3.form;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;
import io.racs.testkit.SeededBytes;
import io.racs.testkit.TestSeed;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Proves that the form reader splits a multipart body exactly however the bytes arrive (one at a
 * time, or in reads of random size), even with boundary look-alikes inside the file and a file
 * larger than its buffer, and refuses a body cut off inside a part.
 */
class MultipartFormTest {
  private static final String BOUNDARY = "xYzBoundary";
  private static final String TYPE = "multipart/form-data; boundary=" + BOUNDARY;

  private static byte[] file(int size) {
    byte[] b = SeededBytes.bytes(TestSeed.get(), size);
    byte[] fake = ("\r\n--" + BOUNDARY.substring(0, 5)).getBytes(StandardCharsets.US_ASCII);
    for (int at = 17; at + fake.length < size; at += 65_531) {
      System.arraycopy(fake, 0, b, at, fake.length);
    }
    return b;
  }

  private static byte[] body(byte[] file, boolean closed) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(
        ("preamble\r\n--"
                + BOUNDARY
                + "\r\nContent-Disposition: form-data; name=\"key\"\r\n\r\n"
                + "a/${filename}\r\n--"
                + BOUNDARY
                + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"f.bin\"\r\n"
                + "Content-Type: application/octet-stream\r\n\r\n")
            .getBytes(StandardCharsets.UTF_8));
    out.writeBytes(file);
    if (closed) {
      out.writeBytes(("\r\n--" + BOUNDARY + "--\r\n").getBytes(StandardCharsets.UTF_8));
    }
    return out.toByteArray();
  }

  /** Hands out at most {@code chunk} bytes per read (random sizes when 0). */
  private static InputStream trickle(byte[] bytes, int chunk) {
    Random random = new Random(TestSeed.get() + 1);
    return new FilterInputStream(new ByteArrayInputStream(bytes)) {
      @Override
      public int read(byte[] b, int off, int len) throws IOException {
        int n = chunk > 0 ? chunk : 1 + random.nextInt(10_000);
        return super.read(b, off, Math.min(len, n));
      }
    };
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 7, 0, 1 << 20})
  void next_whenBytesArriveInAnyChunks_splitsFieldsAndFileExactly(int chunk) throws IOException {
    byte[] data = file(chunk == 1 ? 70_000 : 300_000);
    MultipartForm form = MultipartForm.of(trickle(body(data, true), chunk), TYPE);

    MultipartForm.Part key = form.next();
    assertThat(key.name()).isEqualTo("key");
    assertThat(form.text(1024)).isEqualTo("a/${filename}");
    MultipartForm.Part file = form.next();
    assertThat(file).isEqualTo(new MultipartForm.Part("file", "f.bin", "application/octet-stream"));
    assertThat(form.stream().readAllBytes()).isEqualTo(data);
    assertThat(form.next()).isNull();
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 0})
  void stream_whenBodyEndsInsideTheFile_isMalformedPostRequest(int chunk) throws IOException {
    MultipartForm form = MultipartForm.of(trickle(body(file(5000), false), chunk), TYPE);
    form.next();
    form.next();
    assertThatThrownBy(() -> form.stream().readAllBytes())
        .isInstanceOf(IOException.class)
        .cause()
        .isInstanceOfSatisfying(
            S3Exception.class,
            e -> assertThat(e.code()).isEqualTo(S3ErrorCode.MALFORMED_POST_REQUEST));
  }
}
