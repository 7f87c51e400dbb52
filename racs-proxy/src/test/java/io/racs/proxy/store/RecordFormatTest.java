package io.racs.proxy.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.proxy.store.format.Layout;
import io.racs.proxy.store.format.UploadRecord;
import io.racs.proxy.store.format.VersionMeta;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

/**
 * Proves that records stay readable across the fields added to them: a version or upload record
 * written before content headers, tags or the upload's checksum were kept reads with none, and a
 * record written now keeps them.
 */
class RecordFormatTest {
  /** A record as {@link Layout#encode} wrote it: JSON, then its CRC line. */
  private static byte[] stored(String json) {
    CRC32C crc = new CRC32C();
    crc.update(json.getBytes(StandardCharsets.UTF_8));
    return (json + "\n#crc32c=" + String.format(Locale.ROOT, "%08x", crc.getValue()))
        .getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void decode_versionRecordWithoutContentHeaders_readsWithNone() {
    String json =
        "{\"format\":1,\"arrayId\":\"a1\",\"bucket\":\"b\",\"key\":\"k\",\"versionId\":\"v1\","
            + "\"deleteMarker\":false,\"sizeBytes\":3,\"etag\":\"e\",\"contentType\":\"text/plain\","
            + "\"userMetadata\":{\"color\":\"blue\"},\"checksums\":{},\"lastModifiedMillis\":7,"
            + "\"geometry\":\"4x2\",\"multipart\":false,\"parts\":[{\"partNumber\":1,"
            + "\"dataId\":\"v1\",\"sizeBytes\":3,\"etag\":\"e\",\"pieceBytes\":4096,"
            + "\"slots\":[0,1,2,3,4,5],\"checksums\":{},\"inline\":true}]}";
    VersionMeta meta = Layout.decode(stored(json), VersionMeta.class).orElseThrow();
    assertThat(meta.contentHeaders()).isEmpty();
    assertThat(meta.tags()).isEmpty();
    assertThat(meta.userMetadata()).containsExactly(Map.entry("color", "blue"));
    assertThat(meta.parts()).hasSize(1);
  }

  @Test
  void decode_uploadRecordWithoutContentHeaders_readsWithNone() {
    String json =
        "{\"bucket\":\"b\",\"key\":\"k\",\"uploadId\":\"u\",\"initiatedMillis\":7,"
            + "\"contentType\":\"text/plain\",\"userMetadata\":{}}";
    UploadRecord upload = Layout.decode(stored(json), UploadRecord.class).orElseThrow();
    assertThat(upload.contentType()).isEqualTo("text/plain");
    assertThat(upload.contentHeaders()).isNull();
    assertThat(upload.tags()).isNull();
    assertThat(upload.checksumAlgorithm()).as("written before checksums were recorded").isNull();
    assertThat(upload.checksumType()).isNull();
  }

  @Test
  void encode_versionWithTags_decodesToTheSame() {
    VersionMeta meta =
        VersionMeta.builder()
            .arrayId("a1")
            .bucket("b")
            .key("k")
            .versionId("v1")
            .etag("e")
            .contentType("text/plain")
            .userMetadata(Map.of())
            .checksums(Map.of())
            .lastModifiedMillis(7)
            .geometry("4x2")
            .contentHeaders(Map.of())
            .tags(Map.of("team", "storage", "empty", ""))
            .build();
    VersionMeta decoded = Layout.decode(Layout.encode(meta), VersionMeta.class).orElseThrow();
    assertThat(decoded).isEqualTo(meta);
    assertThat(decoded.tags()).containsOnly(Map.entry("team", "storage"), Map.entry("empty", ""));
  }

  @Test
  void encode_versionWithContentHeaders_decodesToTheSame() {
    VersionMeta meta =
        VersionMeta.builder()
            .arrayId("a1")
            .bucket("b")
            .key("k")
            .versionId("v1")
            .etag("e")
            .contentType("text/plain")
            .userMetadata(Map.of())
            .checksums(Map.of())
            .lastModifiedMillis(7)
            .geometry("4x2")
            .contentHeaders(Map.of("Cache-Control", "no-store", "Content-Language", "fr"))
            .build();
    assertThat(Layout.decode(Layout.encode(meta), VersionMeta.class)).contains(meta);
  }
}
