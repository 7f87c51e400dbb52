package io.racs.proxy.s3.handler;

import io.racs.proxy.s3.bridge.LockBridge;
import io.racs.proxy.s3.bridge.ObjectVersion;
import io.racs.proxy.s3.bridge.StoreBridge;
import io.racs.proxy.s3.bridge.VersionLock;
import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;
import io.racs.proxy.s3.objectlock.LockConfiguration;
import io.racs.proxy.s3.objectlock.LockDocuments;
import io.racs.proxy.s3.objectlock.LockHeaders;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Function;

/**
 * The object lock family: Put and GetObjectLockConfiguration, Put and GetObjectRetention, Put and
 * GetObjectLegalHold; and what the other handlers ask of object lock (the lock a write stores, the
 * headers of HEAD and GET, whether a request bypasses a {@code GOVERNANCE} retention).
 *
 * <p>There is no access control yet (issue #40): any authenticated request may send {@code
 * x-amz-bypass-governance-retention: true}, and so shorten or remove a {@code GOVERNANCE} retention
 * and delete the version. {@code COMPLIANCE} retention and legal holds yield to no request.
 */
final class ObjectLockHandler {
  private final StoreBridge store;
  private final LockBridge locks;

  ObjectLockHandler(StoreBridge store) {
    this.store = store;
    this.locks = store.locks();
  }

  S3Response handle(S3Request request) throws IOException {
    return switch (request.route().operation()) {
      case PUT_OBJECT_LOCK_CONFIGURATION -> putConfiguration(request);
      case GET_OBJECT_LOCK_CONFIGURATION -> getConfiguration(request);
      case PUT_OBJECT_RETENTION -> putRetention(request);
      case GET_OBJECT_RETENTION -> getRetention(request);
      case PUT_OBJECT_LEGAL_HOLD -> putLegalHold(request);
      case GET_OBJECT_LEGAL_HOLD -> getLegalHold(request);
      default -> throw S3Exception.of(S3ErrorCode.NOT_IMPLEMENTED);
    };
  }

  /** True when the request sends {@code x-amz-bypass-governance-retention: true}. */
  static boolean bypassGovernance(S3Request request) {
    return request
        .headers()
        .first(LockHeaders.BYPASS)
        .map(v -> v.strip().equalsIgnoreCase("true"))
        .orElse(false);
  }

  private S3Response putConfiguration(S3Request request) throws IOException {
    LockConfiguration configuration = LockConfiguration.parse(ObjectHandler.readXml(request));
    if (!locks.lockEnabled(request.bucket())) {
      locks.enableLock(request.bucket()); // InvalidBucketState unless versioning is enabled
    }
    locks.putConfiguration(request.bucket(), configuration.toDocument());
    return S3Response.status(200);
  }

  private S3Response getConfiguration(S3Request request) {
    if (!locks.lockEnabled(request.bucket())) {
      throw S3Exception.of(S3ErrorCode.OBJECT_LOCK_CONFIGURATION_NOT_FOUND)
          .withDetail("BucketName", request.bucket())
          .withResource("/" + request.bucket());
    }
    String document =
        locks.configuration(request.bucket()).orElseGet(LockConfiguration.ENABLED::toDocument);
    return S3Response.xml(document.getBytes(StandardCharsets.UTF_8));
  }

  private S3Response putRetention(S3Request request) throws IOException {
    LockDocuments.Retention retention =
        LockDocuments.parseRetention(ObjectHandler.readXml(request));
    ObjectVersion version = lockableVersion(request);
    if (retention.retainUntil() != null && !retention.retainUntil().isAfter(Instant.now())) {
      throw S3Exception.of(
          S3ErrorCode.INVALID_ARGUMENT, "The retain until date must be in the future!");
    }
    locks.putRetention(
        version, retention.mode(), retention.retainUntil(), bypassGovernance(request));
    S3Response response = S3Response.status(200);
    Responses.versionIdHeader(response, version);
    return response;
  }

  private S3Response getRetention(S3Request request) {
    ObjectVersion version = lockableVersion(request);
    VersionLock lock = locks.lockOf(version).orElse(VersionLock.NONE);
    if (lock.mode() == null) {
      throw S3Exception.of(S3ErrorCode.NO_SUCH_OBJECT_LOCK_CONFIGURATION)
          .withResource("/" + request.bucket() + "/" + request.key());
    }
    S3Response response =
        S3Response.xml(LockDocuments.retentionXml(lock.mode(), lock.retainUntil()));
    Responses.versionIdHeader(response, version);
    return response;
  }

  private S3Response putLegalHold(S3Request request) throws IOException {
    boolean on = LockDocuments.parseLegalHold(ObjectHandler.readXml(request));
    ObjectVersion version = lockableVersion(request);
    locks.putLegalHold(version, on);
    S3Response response = S3Response.status(200);
    Responses.versionIdHeader(response, version);
    return response;
  }

  private S3Response getLegalHold(S3Request request) {
    ObjectVersion version = lockableVersion(request);
    VersionLock lock = locks.lockOf(version).orElse(VersionLock.NONE);
    S3Response response = S3Response.xml(LockDocuments.legalHoldXml(lock.legalHold()));
    Responses.versionIdHeader(response, version);
    return response;
  }

  /**
   * The version a retention or legal-hold request names (its {@code versionId}, else the current
   * one): {@code InvalidRequest} in a bucket without object lock, as S3 answers, checked first.
   */
  private ObjectVersion lockableVersion(S3Request request) {
    if (!locks.lockEnabled(request.bucket())) {
      throw S3Exception.of(
          S3ErrorCode.INVALID_REQUEST, "Bucket is missing Object Lock Configuration");
    }
    Optional<String> versionId = request.query().first("versionId");
    ObjectVersion version =
        versionId.isPresent()
            ? ObjectHandler.exactVersion(store, request.bucket(), request.key(), versionId.get())
            : store.head(request.bucket(), request.key());
    if (version.deleteMarker()) {
      throw S3Exception.of(S3ErrorCode.METHOD_NOT_ALLOWED)
          .withHeader("x-amz-delete-marker", "true")
          .withHeader("x-amz-version-id", version.versionId());
    }
    return version;
  }

  /**
   * The lock a write stores: what its headers ask, else the bucket's default retention; null in a
   * bucket without object lock ({@code InvalidRequest} if the headers ask for one there).
   */
  VersionLock forWrite(S3Request request) {
    LockHeaders.Requested asked =
        LockHeaders.parse(name -> request.headers().first(name), Instant.now());
    if (!locks.lockEnabled(request.bucket())) {
      if (!asked.none()) {
        throw S3Exception.of(
            S3ErrorCode.INVALID_REQUEST, "Bucket is missing Object Lock Configuration");
      }
      return null;
    }
    String mode = asked.mode();
    Instant until = asked.retainUntil();
    if (mode == null) {
      Optional<String> document = locks.configurationRecently(request.bucket());
      if (document.isPresent()) {
        LockConfiguration defaults =
            LockConfiguration.parse(document.get().getBytes(StandardCharsets.UTF_8));
        mode = defaults.mode();
        until = defaults.retainUntil(locks.retentionStart());
      }
    }
    return new VersionLock(mode, until, Boolean.TRUE.equals(asked.legalHold()));
  }

  /**
   * Starts reading the locks of the request's key beside the lookup of its version (see {@link
   * LockBridge#lockLookup}); {@link #headers} takes the answer.
   */
  Function<ObjectVersion, Optional<VersionLock>> lookup(S3Request request) {
    return locks.lockLookup(request.bucket(), request.key());
  }

  /** The lock headers of a HEAD or GET of {@code version}, when it has a lock. */
  static void headers(
      S3Response response,
      Function<ObjectVersion, Optional<VersionLock>> lookup,
      ObjectVersion version) {
    Optional<VersionLock> lock = lookup.apply(version);
    if (lock.isEmpty()) {
      return;
    }
    if (lock.get().mode() != null) {
      response.header(LockHeaders.MODE, lock.get().mode());
      response.header(LockHeaders.RETAIN_UNTIL, LockHeaders.format(lock.get().retainUntil()));
    }
    response.header(LockHeaders.LEGAL_HOLD, lock.get().legalHold() ? "ON" : "OFF");
  }
}
