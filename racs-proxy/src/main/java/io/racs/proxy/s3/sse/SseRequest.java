package io.racs.proxy.s3.sse;

import io.racs.proxy.crypto.CustomerKey;
import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;
import io.racs.proxy.s3.http.Headers;
import java.util.Locale;

/**
 * The server-side encryption a request asks for, from its headers: {@code
 * x-amz-server-side-encryption: AES256} (SSE-S3, the proxy's keys) or the three {@code
 * x-amz-server-side-encryption-customer-*} headers (SSE-C), and for a copy the copy source's
 * customer key. Parsed once, before anything is read or stored; everything S3 would refuse is
 * refused here with S3's error.
 *
 * @param serverSide true for SSE-S3
 * @param customerKey the SSE-C key, or null
 * @param copySourceKey the copy source's SSE-C key, or null
 */
public record SseRequest(boolean serverSide, CustomerKey customerKey, CustomerKey copySourceKey) {
  /** No encryption asked for. */
  public static final SseRequest NONE = new SseRequest(false, null, null);

  static final String SSE = "x-amz-server-side-encryption";
  static final String KMS_KEY_ID = "x-amz-server-side-encryption-aws-kms-key-id";
  static final String CUSTOMER = "x-amz-server-side-encryption-customer-";
  static final String COPY_CUSTOMER = "x-amz-copy-source-server-side-encryption-customer-";

  /** What an operation may carry. */
  public enum Allowed {
    /** A write that is sealed as asked (PUT, CreateMultipartUpload): SSE-S3 or SSE-C. */
    WRITE,
    /** A copy: as {@link #WRITE}, plus the copy source's SSE-C key. */
    COPY,
    /** A read of a version, or a part of an upload sealed with a customer key: SSE-C only. */
    CUSTOMER_KEY,
    /** An UploadPartCopy: the upload's SSE-C key and the copy source's. */
    PART_COPY
  }

  /** True when the request asks for any encryption, its own or its copy source's. */
  public boolean any() {
    return serverSide || customerKey != null || copySourceKey != null;
  }

  /**
   * Parses a request's encryption headers.
   *
   * @param secure whether the request came over TLS (SSE-C keys must, as on S3)
   * @param plainHttpAllowed whether the operator allowed SSE-C keys over plain HTTP
   * @throws S3Exception InvalidArgument or InvalidRequest as S3 answers (a KMS key id without
   *     {@code aws:kms}, any encryption header on a read); NotImplemented for SSE-KMS
   */
  public static SseRequest parse(
      Headers headers, Allowed allowed, boolean secure, boolean plainHttpAllowed) {
    String sse = headers.first(SSE).map(String::strip).orElse(null);
    boolean kmsKeyId = headers.contains(KMS_KEY_ID);
    boolean serverSide = false;
    // A read or a part names no encryption of its own, whichever S3 would have stored: S3 answers
    // 400 to the header there, SSE-KMS's included (so does a KMS key id without aws:kms).
    if ((sse != null || kmsKeyId)
        && (allowed == Allowed.CUSTOMER_KEY || allowed == Allowed.PART_COPY)) {
      throw S3Exception.of(
          S3ErrorCode.INVALID_ARGUMENT,
          "The "
              + (sse != null ? SSE : KMS_KEY_ID)
              + " header is not supported for this operation.");
    }
    if (kmsKeyId && (sse == null || !sse.toLowerCase(Locale.ROOT).startsWith("aws:kms"))) {
      throw S3Exception.of(
          S3ErrorCode.INVALID_ARGUMENT,
          "Server Side Encryption with AWS KMS managed key requires HTTP header"
              + " x-amz-server-side-encryption : aws:kms");
    }
    if (sse != null) {
      if (sse.toLowerCase(Locale.ROOT).startsWith("aws:kms")) {
        throw S3Exception.of(
            S3ErrorCode.NOT_IMPLEMENTED,
            "SSE-KMS needs a key management service, and none is configured.");
      }
      if (!sse.equals("AES256")) {
        throw S3Exception.of(
            S3ErrorCode.INVALID_ARGUMENT,
            "The encryption method specified is not supported: " + sse + ".");
      }
      serverSide = true;
    }
    CustomerKey customer = customerKey(headers, CUSTOMER);
    CustomerKey copySource = customerKey(headers, COPY_CUSTOMER);
    if (copySource != null && allowed != Allowed.COPY && allowed != Allowed.PART_COPY) {
      throw S3Exception.of(
          S3ErrorCode.INVALID_ARGUMENT, "The copy source encryption headers are only for a copy.");
    }
    if (serverSide && customer != null) {
      throw S3Exception.of(
          S3ErrorCode.INVALID_ARGUMENT,
          "Server Side Encryption with Customer provided key is incompatible with the encryption"
              + " method specified.");
    }
    if ((customer != null || copySource != null) && !secure && !plainHttpAllowed) {
      throw S3Exception.of(
          S3ErrorCode.INVALID_REQUEST,
          "Requests specifying Server Side Encryption with Customer provided keys must be made"
              + " over a secure connection.");
    }
    return new SseRequest(serverSide, customer, copySource);
  }

  private static CustomerKey customerKey(Headers headers, String prefix) {
    String algorithm = headers.first(prefix + "algorithm").map(String::strip).orElse(null);
    String key = headers.first(prefix + "key").orElse(null);
    String md5 = headers.first(prefix + "key-md5").orElse(null);
    if (algorithm == null && key == null && md5 == null) {
      return null;
    }
    if (algorithm == null) {
      throw S3Exception.of(
          S3ErrorCode.INVALID_ARGUMENT,
          "Requests specifying Server Side Encryption with Customer provided keys must provide a"
              + " valid encryption algorithm.");
    }
    if (!algorithm.equals(CustomerKey.ALGORITHM)) {
      throw S3Exception.of(
          S3ErrorCode.INVALID_ENCRYPTION_ALGORITHM,
          "The encryption algorithm specified is not valid: " + algorithm + ".");
    }
    if (key == null) {
      throw S3Exception.of(
          S3ErrorCode.INVALID_ARGUMENT,
          "Requests specifying Server Side Encryption with Customer provided keys must provide an"
              + " appropriate secret key.");
    }
    if (md5 == null) {
      throw S3Exception.of(
          S3ErrorCode.INVALID_ARGUMENT,
          "Requests specifying Server Side Encryption with Customer provided keys must provide the"
              + " client calculated MD5 of the secret key.");
    }
    try {
      return CustomerKey.of(algorithm, key, md5);
    } catch (IllegalArgumentException e) {
      // CustomerKey's messages are S3's, and name neither the key nor its MD5.
      throw S3Exception.of(S3ErrorCode.INVALID_ARGUMENT, e.getMessage());
    }
  }

  @Override
  public String toString() {
    return "SseRequest[serverSide="
        + serverSide
        + ", customer="
        + (customerKey != null)
        + ", copySource="
        + (copySourceKey != null)
        + "]";
  }
}
