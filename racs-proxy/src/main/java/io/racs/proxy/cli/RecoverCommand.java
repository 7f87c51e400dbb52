package io.racs.proxy.cli;

import io.racs.proxy.cli.progress.ProgressBar;
import io.racs.proxy.cli.progress.ProgressOption;
import io.racs.proxy.config.ArrayConfig;
import io.racs.proxy.crypto.CustomerKey;
import io.racs.proxy.store.ErasureStore;
import io.racs.proxy.store.api.ObjectStore;
import io.racs.proxy.store.api.StoreException;
import io.racs.proxy.store.format.VersionMeta;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code racs recover}: rebuilds one object straight from the repositories, with no proxy running
 * and nothing written to the repositories — the answer to "the proxy and its host are gone". Any k
 * reachable repositories are enough.
 */
@Command(
    name = "recover",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = "Rebuild one object from the repositories, without the proxy.")
public final class RecoverCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(
      names = "--config",
      required = true,
      paramLabel = "FILE",
      description = "RACS configuration (repositories and array)")
  Path config;

  @Option(names = "--bucket", required = true, paramLabel = "B", description = "bucket")
  String bucket;

  @Option(names = "--key", required = true, paramLabel = "K", description = "object key")
  String key;

  @Option(names = "--out", required = true, paramLabel = "FILE", description = "file to write")
  Path out;

  @Option(
      names = "--sse-c-key",
      paramLabel = "FILE",
      description =
          "the object's SSE-C key: a file of its 32 raw bytes (as aws-cli's fileb://); SSE-S3"
              + " objects are opened with the configuration's master key")
  Path sseCustomerKey;

  @Option(
      names = "--version-id",
      paramLabel = "ID",
      description =
          "the version to rebuild (a versioned bucket keeps every version), instead of the"
              + " current one")
  String versionId;

  @Mixin ProgressOption progress;

  @Override
  public Integer call() throws IOException {
    CustomerKey customerKey = sseCustomerKey == null ? null : customerKey(sseCustomerKey);
    ArrayConfig array = ArrayConfig.load(config);
    try (ErasureStore store = array.openReadOnly();
        ObjectStore.ObjectReader reader = open(store, customerKey)) {
      Path parent = out.toAbsolutePath().getParent();
      Files.createDirectories(parent);
      Path temp = Files.createTempFile(parent, "." + out.getFileName() + "-", ".tmp");
      try {
        ProgressBar bar = ProgressBar.create(progress.mode(), spec.commandLine().getErr());
        try (InputStream in = reader.body();
            OutputStream target = Files.newOutputStream(temp)) {
          copy(in, target, bar, reader.meta().sizeBytes());
        }
        bar.finish();
        Files.move(temp, out, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      } finally {
        Files.deleteIfExists(temp);
      }
      spec.commandLine()
          .getOut()
          .printf(
              "recovered %s/%s (%d bytes, ETag %s, version %s) to %s%n",
              bucket,
              key,
              reader.meta().sizeBytes(),
              reader.meta().etag(),
              s3VersionId(reader.meta()),
              out);
      return ExitCodes.OK;
    }
  }

  /** Copies {@code in} to {@code target}, showing on {@code bar} how much of {@code size} is. */
  private void copy(InputStream in, OutputStream target, ProgressBar bar, long size)
      throws IOException {
    String label = "recover " + bucket + "/" + key;
    byte[] buffer = new byte[1 << 20];
    long done = 0;
    for (int n; (n = in.read(buffer)) >= 0; ) {
      target.write(buffer, 0, n);
      done += n;
      bar.update(ProgressBar.Step.of(label, done, size, "bytes"));
    }
  }

  /**
   * The id S3 clients know {@code version} by, which {@code --version-id} takes back: {@code null}
   * for the null version (written while versioning was not enabled), whose store id no S3 answer
   * shows.
   */
  private static String s3VersionId(VersionMeta version) {
    return version.nullVersion() ? ObjectStore.NULL_VERSION : version.versionId();
  }

  /** The SSE-C key in {@code file}: exactly 32 bytes. */
  private static CustomerKey customerKey(Path file) throws IOException {
    byte[] raw = Files.readAllBytes(file);
    if (raw.length != 32) {
      throw new IllegalArgumentException(
          "--sse-c-key: " + file + " holds " + raw.length + " bytes (expected: 32 raw bytes)");
    }
    try {
      java.util.Base64.Encoder b64 = java.util.Base64.getEncoder();
      return CustomerKey.of(
          CustomerKey.ALGORITHM,
          b64.encodeToString(raw),
          b64.encodeToString(java.security.MessageDigest.getInstance("MD5").digest(raw)));
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * The current version, or the one {@code --version-id} names, judged by the store's one
   * visibility rule: a removed version is not found, and a delete marker has no bytes to recover.
   */
  private ObjectStore.ObjectReader open(ErasureStore store, CustomerKey customerKey) {
    if (versionId == null) {
      return store.get(bucket, key, 0, -1, 0, customerKey);
    }
    VersionMeta version;
    try {
      version = store.version(bucket, key, versionId);
    } catch (StoreException e) {
      if (e.code() != StoreException.Code.NO_SUCH_VERSION) {
        throw e;
      }
      // The store's message names the version but not what is wrong with it.
      throw new StoreException(
          e.code(),
          bucket
              + "/"
              + key
              + (ObjectStore.NULL_VERSION.equals(versionId)
                  ? " has no null version (none was written while versioning was not enabled,"
                      + " or it was deleted)"
                  : " has no version " + versionId),
          e);
    }
    if (version.deleteMarker()) {
      throw new IllegalArgumentException(
          "--version-id: "
              + versionId
              + " (expected: a version of "
              + key
              + ", not a delete marker)");
    }
    return store.read(version, 0, -1, customerKey);
  }
}
