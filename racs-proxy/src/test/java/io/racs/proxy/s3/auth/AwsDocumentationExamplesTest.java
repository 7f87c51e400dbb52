package io.racs.proxy.s3.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;
import io.racs.proxy.s3.http.Headers;
import io.racs.proxy.s3.http.RequestHead;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/**
 * Proves the authenticator accepts the worked examples of the Amazon S3 documentation (SigV4 header
 * and presigned, SigV2 header and query string), byte for byte, and refuses them once any signed
 * part changes.
 */
class AwsDocumentationExamplesTest {
  static final String AK = "AKIAIOSFODNN7EXAMPLE";
  static final String SK = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
  static final String EMPTY = SigV4.EMPTY_SHA256;

  private static S3Authenticator authenticatorAt(String instant) {
    return S3Authenticator.builder(StaticCredentialStore.of(AK, SK))
        .clock(Clock.fixed(Instant.parse(instant), ZoneOffset.UTC))
        .build();
  }

  private static final S3Authenticator AT_2013 = authenticatorAt("2013-05-24T00:05:00Z");

  private static RequestHead getObject(String signature, String range) {
    return RequestHead.of(
        "GET",
        "/test.txt",
        Headers.of(
            "Host",
            "examplebucket.s3.amazonaws.com",
            "Authorization",
            "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,"
                + "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,Signature="
                + signature,
            "Range",
            range,
            "x-amz-content-sha256",
            EMPTY,
            "x-amz-date",
            "20130524T000000Z"));
  }

  @Test
  void authenticate_whenGetObjectExample_accepts() {
    Authentication a =
        AT_2013.authenticate(
            getObject(
                "f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41", "bytes=0-9"));
    assertThat(a.accessKeyId()).isEqualTo(AK);
    assertThat(a.type()).isEqualTo(AuthType.V4_HEADER);
    assertThat(a.requestTime()).isEqualTo(Instant.parse("2013-05-24T00:00:00Z"));
    assertThat(a.contentSha256().mode()).isEqualTo(ContentSha256.Mode.SHA256);
    assertThat(a.signingContext().orElseThrow().seedSignature())
        .isEqualTo("f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41");
  }

  @Test
  void authenticate_whenGetObjectExampleRangeChanged_signatureDoesNotMatch() {
    assertThatThrownBy(
            () ->
                AT_2013.authenticate(
                    getObject(
                        "f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41",
                        "bytes=0-10")))
        .isInstanceOfSatisfying(
            S3Exception.class,
            e -> assertThat(e.code()).isEqualTo(S3ErrorCode.SIGNATURE_DOES_NOT_MATCH));
  }

  @Test
  void authenticate_whenGetObjectExampleSignatureHasUpperCaseHex_signatureDoesNotMatch() {
    assertThatThrownBy(
            () ->
                AT_2013.authenticate(
                    getObject(
                        "F0E8BDB87C964420E857BD35B5D6ED310BD44F0170ABA48DD91039C6036BDB41",
                        "bytes=0-9")))
        .isInstanceOfSatisfying(
            S3Exception.class,
            e -> assertThat(e.code()).isEqualTo(S3ErrorCode.SIGNATURE_DOES_NOT_MATCH));
  }

  @Test
  void authenticate_whenPutObjectExampleWithDateHeader_accepts() {
    RequestHead put =
        RequestHead.of(
            "PUT",
            "/test%24file.text",
            Headers.of(
                "Host", "examplebucket.s3.amazonaws.com",
                "Date", "Fri, 24 May 2013 00:00:00 GMT",
                "Authorization",
                    "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,SignedHeaders=date;host;x-amz-content-sha256;x-amz-date;x-amz-storage-class,Signature=98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd",
                "x-amz-date", "20130524T000000Z",
                "x-amz-storage-class", "REDUCED_REDUNDANCY",
                "x-amz-content-sha256",
                    "44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072"));
    assertThat(AT_2013.authenticate(put).contentSha256().value())
        .isEqualTo("44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072");
  }

  @Test
  void authenticate_whenGetBucketLifecycleExample_accepts() {
    RequestHead get =
        RequestHead.of(
            "GET",
            "/?lifecycle",
            Headers.of(
                "Host", "examplebucket.s3.amazonaws.com",
                "Authorization",
                    "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,SignedHeaders=host;x-amz-content-sha256;x-amz-date,Signature=fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543",
                "x-amz-date", "20130524T000000Z",
                "x-amz-content-sha256", EMPTY));
    assertThat(AT_2013.authenticate(get).accessKeyId()).isEqualTo(AK);
  }

  @Test
  void authenticate_whenListObjectsExample_accepts() {
    RequestHead get =
        RequestHead.of(
            "GET",
            "/?max-keys=2&prefix=J",
            Headers.of(
                "Host", "examplebucket.s3.amazonaws.com",
                "Authorization",
                    "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,SignedHeaders=host;x-amz-content-sha256;x-amz-date,Signature=34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7",
                "x-amz-date", "20130524T000000Z",
                "x-amz-content-sha256", EMPTY));
    assertThat(AT_2013.authenticate(get).accessKeyId()).isEqualTo(AK);
  }

  @Test
  void authenticate_whenChunkedUploadExampleHead_acceptsWithStreamingMode() {
    RequestHead put =
        RequestHead.of(
            "PUT",
            "/examplebucket/chunkObject.txt",
            Headers.of(
                "Host", "s3.amazonaws.com",
                "x-amz-date", "20130524T000000Z",
                "x-amz-storage-class", "REDUCED_REDUNDANCY",
                "Authorization",
                    "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,SignedHeaders=content-encoding;content-length;host;x-amz-content-sha256;x-amz-date;x-amz-decoded-content-length;x-amz-storage-class,Signature=4f232c4386841ef735655705268965c44a0e4690baa4adea153f7db9fa80a0a9",
                "x-amz-content-sha256", "STREAMING-AWS4-HMAC-SHA256-PAYLOAD",
                "Content-Encoding", "aws-chunked",
                "x-amz-decoded-content-length", "66560",
                "Content-Length", "66824"));
    Authentication a = AT_2013.authenticate(put);
    assertThat(a.contentSha256().mode()).isEqualTo(ContentSha256.Mode.STREAMING_SIGNED);
    SigningContext ctx = a.signingContext().orElseThrow();
    assertThat(ctx.seedSignature())
        .isEqualTo("4f232c4386841ef735655705268965c44a0e4690baa4adea153f7db9fa80a0a9");
    assertThat(ctx.scope().toString()).isEqualTo("20130524/us-east-1/s3/aws4_request");
    assertThat(ctx.toString()).doesNotContain("4f232c");
  }

  private static RequestHead presigned(String signature) {
    return RequestHead.of(
        "GET",
        "/test.txt?X-Amz-Algorithm=AWS4-HMAC-SHA256"
            + "&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524%2Fus-east-1%2Fs3%2Faws4_request"
            + "&X-Amz-Date=20130524T000000Z&X-Amz-Expires=86400&X-Amz-SignedHeaders=host"
            + "&X-Amz-Signature="
            + signature,
        Headers.of("Host", "examplebucket.s3.amazonaws.com"));
  }

  @Test
  void authenticate_whenPresignedExampleWithinExpiry_accepts() {
    Authentication a =
        authenticatorAt("2013-05-24T23:59:59Z")
            .authenticate(
                presigned("aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404"));
    assertThat(a.type()).isEqualTo(AuthType.V4_PRESIGNED);
    assertThat(a.contentSha256()).isEqualTo(ContentSha256.UNSIGNED);
  }

  @Test
  void authenticate_whenPresignedExampleAfterExpiry_accessDeniedExpired() {
    assertThatThrownBy(
            () ->
                authenticatorAt("2013-05-25T00:00:01Z")
                    .authenticate(
                        presigned(
                            "aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404")))
        .isInstanceOfSatisfying(
            S3Exception.class,
            e -> {
              assertThat(e.code()).isEqualTo(S3ErrorCode.ACCESS_DENIED);
              assertThat(e.getMessage()).isEqualTo("Request has expired");
            });
  }

  @Test
  void authenticate_whenPresignedExampleTampered_signatureDoesNotMatch() {
    assertThatThrownBy(
            () ->
                AT_2013.authenticate(
                    presigned("aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d405")))
        .isInstanceOfSatisfying(
            S3Exception.class,
            e -> assertThat(e.code()).isEqualTo(S3ErrorCode.SIGNATURE_DOES_NOT_MATCH));
  }

  // SigV2, from the "Signing and authenticating REST requests" examples (bucket johnsmith).

  private static final S3Authenticator AT_2007 = authenticatorAt("2007-03-27T19:40:00Z");

  @Test
  void authenticate_whenV2ObjectGetExample_accepts() {
    RequestHead get =
        RequestHead.of(
            "GET",
            "/photos/puppy.jpg",
            Headers.of(
                "Host", "johnsmith.s3.amazonaws.com",
                "Date", "Tue, 27 Mar 2007 19:36:42 +0000",
                "Authorization", "AWS AKIAIOSFODNN7EXAMPLE:bWq2s1WEIj+Ydj0vQ697zp+IXMU="));
    Authentication a = AT_2007.authenticate(get, "johnsmith");
    assertThat(a.type()).isEqualTo(AuthType.V2_HEADER);
    assertThat(a.signingContext()).isEmpty();
  }

  @Test
  void authenticate_whenV2ExampleWithoutVirtualHostBucket_signatureDoesNotMatch() {
    RequestHead get =
        RequestHead.of(
            "GET",
            "/photos/puppy.jpg",
            Headers.of(
                "Host", "johnsmith.s3.amazonaws.com",
                "Date", "Tue, 27 Mar 2007 19:36:42 +0000",
                "Authorization", "AWS AKIAIOSFODNN7EXAMPLE:bWq2s1WEIj+Ydj0vQ697zp+IXMU="));
    assertThatThrownBy(() -> AT_2007.authenticate(get))
        .isInstanceOfSatisfying(
            S3Exception.class,
            e -> assertThat(e.code()).isEqualTo(S3ErrorCode.SIGNATURE_DOES_NOT_MATCH));
  }

  @Test
  void authenticate_whenV2AclGetExampleWithSubResource_accepts() {
    RequestHead get =
        RequestHead.of(
            "GET",
            "/?acl",
            Headers.of(
                "Host", "johnsmith.s3.amazonaws.com",
                "Date", "Tue, 27 Mar 2007 19:44:46 +0000",
                "Authorization", "AWS AKIAIOSFODNN7EXAMPLE:c2WLPFtWHVgbEmeEG93a4cG37dM="));
    assertThat(AT_2007.authenticate(get, "johnsmith").accessKeyId()).isEqualTo(AK);
  }

  @Test
  void authenticate_whenV2ListExampleWithPlainQuery_accepts() {
    RequestHead get =
        RequestHead.of(
            "GET",
            "/?prefix=photos&max-keys=50&marker=puppy",
            Headers.of(
                "Host", "johnsmith.s3.amazonaws.com",
                "User-Agent", "Mozilla/5.0",
                "Date", "Tue, 27 Mar 2007 19:42:41 +0000",
                "Authorization", "AWS AKIAIOSFODNN7EXAMPLE:htDYFYduRNen8P9ZfE/s9SuKy0U="));
    assertThat(AT_2007.authenticate(get, "johnsmith").accessKeyId()).isEqualTo(AK);
  }

  @Test
  void authenticate_whenV2DeleteExampleWithXAmzDate_accepts() {
    RequestHead delete =
        RequestHead.of(
            "DELETE",
            "/johnsmith/photos/puppy.jpg",
            Headers.of(
                "User-Agent", "dotnet",
                "Host", "s3.amazonaws.com",
                "Date", "Tue, 27 Mar 2007 21:20:27 +0000",
                "x-amz-date", "Tue, 27 Mar 2007 21:20:26 +0000",
                "Authorization", "AWS AKIAIOSFODNN7EXAMPLE:lx3byBScXR6KzyMaifNkardMwNk="));
    assertThat(authenticatorAt("2007-03-27T21:20:00Z").authenticate(delete).accessKeyId())
        .isEqualTo(AK);
  }

  @Test
  void authenticate_whenV2QueryStringExample_acceptsUntilExpires() {
    RequestHead get =
        RequestHead.of(
            "GET",
            "/photos/puppy.jpg?AWSAccessKeyId=AKIAIOSFODNN7EXAMPLE"
                + "&Signature=NpgCjnDzrM%2BWFzoENXmpNDUsSn8%3D&Expires=1175139620",
            Headers.of("Host", "johnsmith.s3.amazonaws.com"));
    Authentication a = authenticatorAt("2007-03-29T03:40:20Z").authenticate(get, "johnsmith");
    assertThat(a.type()).isEqualTo(AuthType.V2_PRESIGNED);
    assertThat(a.requestTime()).isEqualTo(Instant.ofEpochSecond(1175139620));
    assertThatThrownBy(() -> authenticatorAt("2007-03-29T03:40:21Z").authenticate(get, "johnsmith"))
        .isInstanceOfSatisfying(
            S3Exception.class,
            e -> {
              assertThat(e.code()).isEqualTo(S3ErrorCode.ACCESS_DENIED);
              assertThat(e.getMessage()).isEqualTo("Request has expired");
            });
  }
}
