package io.racs.proxy.s3.route;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;
import io.racs.proxy.s3.http.Headers;
import io.racs.proxy.s3.http.RequestHead;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Proves every supported request shape maps to its operation, bucket and once-decoded key, in path
 * and virtual-host style, and that unsupported or invalid requests get the S3 error for them.
 */
class S3RouterTest {
  private static final S3Router PATH = S3Router.pathStyle();
  private static final S3Router VHOST = S3Router.withBaseDomain("s3.example.com");

  private static S3Route route(S3Router router, String method, String target, String... headers) {
    Headers.Builder h = Headers.builder().add("Host", "s3.example.com:9000");
    for (int i = 0; i < headers.length; i += 2) {
      h.set(headers[i], headers[i + 1]);
    }
    return router.route(RequestHead.of(method, target, h.build()));
  }

  private static S3Operation op(String method, String target, String... headers) {
    return route(PATH, method, target, headers).operation();
  }

  private static S3ErrorCode error(String method, String target, String... headers) {
    try {
      route(PATH, method, target, headers);
      return null;
    } catch (S3Exception e) {
      return e.code();
    }
  }

  @Test
  void route_whenServiceAndBucketRequests_classifies() {
    assertThat(op("GET", "/")).isEqualTo(S3Operation.LIST_BUCKETS);
    assertThat(op("PUT", "/bucket")).isEqualTo(S3Operation.CREATE_BUCKET);
    assertThat(op("PUT", "/bucket/")).isEqualTo(S3Operation.CREATE_BUCKET);
    assertThat(op("DELETE", "/bucket")).isEqualTo(S3Operation.DELETE_BUCKET);
    assertThat(op("HEAD", "/bucket")).isEqualTo(S3Operation.HEAD_BUCKET);
    assertThat(op("GET", "/bucket?location")).isEqualTo(S3Operation.GET_BUCKET_LOCATION);
    assertThat(op("PUT", "/bucket?versioning")).isEqualTo(S3Operation.PUT_BUCKET_VERSIONING);
    assertThat(op("GET", "/bucket?versioning")).isEqualTo(S3Operation.GET_BUCKET_VERSIONING);
    assertThat(op("GET", "/bucket?prefix=a&delimiter=%2F")).isEqualTo(S3Operation.LIST_OBJECTS_V1);
    assertThat(op("GET", "/bucket?list-type=2&prefix=")).isEqualTo(S3Operation.LIST_OBJECTS_V2);
    assertThat(op("GET", "/bucket?versions")).isEqualTo(S3Operation.LIST_OBJECT_VERSIONS);
    assertThat(op("GET", "/bucket?uploads")).isEqualTo(S3Operation.LIST_MULTIPART_UPLOADS);
    assertThat(op("POST", "/bucket?delete")).isEqualTo(S3Operation.DELETE_OBJECTS);
    assertThat(op("POST", "/bucket?delete=")).isEqualTo(S3Operation.DELETE_OBJECTS);
  }

  @Test
  void route_whenObjectRequests_classifies() {
    assertThat(op("PUT", "/b1k/key")).isEqualTo(S3Operation.PUT_OBJECT);
    assertThat(op("PUT", "/b1k/key", "x-amz-copy-source", "/src/k"))
        .isEqualTo(S3Operation.COPY_OBJECT);
    assertThat(op("PUT", "/b1k/key?partNumber=1&uploadId=u")).isEqualTo(S3Operation.UPLOAD_PART);
    assertThat(op("PUT", "/b1k/key?uploadId=u&partNumber=1", "x-amz-copy-source", "/s/k"))
        .isEqualTo(S3Operation.UPLOAD_PART_COPY);
    assertThat(op("GET", "/b1k/key")).isEqualTo(S3Operation.GET_OBJECT);
    assertThat(op("GET", "/b1k/key?partNumber=2")).isEqualTo(S3Operation.GET_OBJECT);
    assertThat(op("GET", "/b1k/key?uploadId=u")).isEqualTo(S3Operation.LIST_PARTS);
    assertThat(op("HEAD", "/b1k/key")).isEqualTo(S3Operation.HEAD_OBJECT);
    assertThat(op("DELETE", "/b1k/key")).isEqualTo(S3Operation.DELETE_OBJECT);
    assertThat(op("DELETE", "/b1k/key?uploadId=u")).isEqualTo(S3Operation.ABORT_MULTIPART_UPLOAD);
    assertThat(op("POST", "/b1k/key?uploads")).isEqualTo(S3Operation.CREATE_MULTIPART_UPLOAD);
    assertThat(op("POST", "/b1k/key?uploadId=u")).isEqualTo(S3Operation.COMPLETE_MULTIPART_UPLOAD);
    assertThat(S3Operation.UPLOAD_PART.family()).isEqualTo(S3Operation.Family.MULTIPART);
  }

  @Test
  void route_whenKeyEscaped_decodesExactlyOnce() {
    S3Route r = route(PATH, "GET", "/bucket/a%2520b/%E6%97%A5+x//..//%2F");
    assertThat(r.bucket()).isEqualTo("bucket");
    assertThat(r.key()).isEqualTo("a%20b/日+x//..///");
    assertThat(r.resource()).isEqualTo("/bucket/a%20b/日+x//..///");
    assertThat(route(PATH, "GET", "/bucket//").key()).isEqualTo("/");
    assertThat(route(PATH, "GET", "/bucket/%00%01%0A").key()).isEqualTo("\u0000\u0001\n");
  }

  @Test
  void route_whenVirtualHost_takesBucketFromHost() {
    S3Route r = route(VHOST, "GET", "/dir/key", "Host", "my.bucket.s3.example.com:9000");
    assertThat(r.bucket()).isEqualTo("my.bucket");
    assertThat(r.key()).isEqualTo("dir/key");
    assertThat(r.virtualHost()).isTrue();
    assertThat(route(VHOST, "GET", "/?list-type=2", "Host", "bkt.S3.EXAMPLE.com").operation())
        .isEqualTo(S3Operation.LIST_OBJECTS_V2);
    S3Route pathOnBase = route(VHOST, "GET", "/bkt/k", "Host", "s3.example.com");
    assertThat(pathOnBase.bucket()).isEqualTo("bkt");
    assertThat(pathOnBase.virtualHost()).isFalse();
    assertThat(route(VHOST, "GET", "/bkt/k", "Host", "127.0.0.1:9000").bucket()).isEqualTo("bkt");
    assertThat(route(PATH, "GET", "/bkt/k", "Host", "bkt.s3.example.com").bucket())
        .isEqualTo("bkt");
    assertThatThrownBy(() -> S3Router.withBaseDomain(".x"))
        .hasMessageContaining("baseDomain: .x (expected:");
  }

  @Test
  void route_whenAclOrAttributes_theirOperations() {
    assertThat(op("GET", "/bucket?acl")).isEqualTo(S3Operation.GET_BUCKET_ACL);
    assertThat(op("PUT", "/bucket?acl")).isEqualTo(S3Operation.PUT_BUCKET_ACL);
    assertThat(op("GET", "/bucket/key?acl")).isEqualTo(S3Operation.GET_OBJECT_ACL);
    assertThat(op("PUT", "/bucket/key?acl")).isEqualTo(S3Operation.PUT_OBJECT_ACL);
    assertThat(op("GET", "/bucket/key?attributes")).isEqualTo(S3Operation.GET_OBJECT_ATTRIBUTES);
  }

  @Test
  void route_whenCorsOrPreflight_classifiesTheCorsOperations() {
    assertThat(route(PATH, "PUT", "/bucket?cors").operation())
        .isEqualTo(S3Operation.PUT_BUCKET_CORS);
    assertThat(route(PATH, "GET", "/bucket?cors").operation())
        .isEqualTo(S3Operation.GET_BUCKET_CORS);
    assertThat(route(PATH, "DELETE", "/bucket?cors").operation())
        .isEqualTo(S3Operation.DELETE_BUCKET_CORS);
    assertThat(route(PATH, "OPTIONS", "/bucket/key").operation())
        .isEqualTo(S3Operation.PREFLIGHT_CORS);
    assertThat(route(PATH, "OPTIONS", "/bucket?acl").operation())
        .isEqualTo(S3Operation.PREFLIGHT_CORS);
  }

  @Test
  void route_whenTagging_namesTheTaggingOperation() {
    assertThat(route(PATH, "PUT", "/bucket?tagging").operation())
        .isEqualTo(S3Operation.PUT_BUCKET_TAGGING);
    assertThat(route(PATH, "GET", "/bucket?tagging").operation())
        .isEqualTo(S3Operation.GET_BUCKET_TAGGING);
    assertThat(route(PATH, "DELETE", "/bucket?tagging").operation())
        .isEqualTo(S3Operation.DELETE_BUCKET_TAGGING);
    assertThat(route(PATH, "PUT", "/bucket/key?tagging").operation())
        .isEqualTo(S3Operation.PUT_OBJECT_TAGGING);
    assertThat(route(PATH, "GET", "/bucket/key?tagging&versionId=v").operation())
        .isEqualTo(S3Operation.GET_OBJECT_TAGGING);
    assertThat(route(PATH, "DELETE", "/bucket/key?tagging").operation())
        .isEqualTo(S3Operation.DELETE_OBJECT_TAGGING);
  }

  @Test
  void route_whenLifecycle_namesTheLifecycleOperationOfABucketOnly() {
    assertThat(route(PATH, "PUT", "/bucket?lifecycle").operation())
        .isEqualTo(S3Operation.PUT_BUCKET_LIFECYCLE);
    assertThat(route(PATH, "GET", "/bucket?lifecycle").operation())
        .isEqualTo(S3Operation.GET_BUCKET_LIFECYCLE);
    assertThat(route(PATH, "DELETE", "/bucket?lifecycle").operation())
        .isEqualTo(S3Operation.DELETE_BUCKET_LIFECYCLE);
    assertThat(error("GET", "/bucket/key?lifecycle")).isEqualTo(S3ErrorCode.NOT_IMPLEMENTED);
    assertThat(error("POST", "/bucket?lifecycle")).isEqualTo(S3ErrorCode.NOT_IMPLEMENTED);
  }

  @Test
  void route_whenUnsupported_notImplementedOrMethodNotAllowed() {
    assertThat(error("DELETE", "/bucket?acl")).isEqualTo(S3ErrorCode.NOT_IMPLEMENTED);
    assertThat(error("DELETE", "/bucket/key?acl")).isEqualTo(S3ErrorCode.NOT_IMPLEMENTED);
    assertThat(error("GET", "/bucket?attributes")).isEqualTo(S3ErrorCode.NOT_IMPLEMENTED);
    assertThat(error("PUT", "/bucket/key?attributes")).isEqualTo(S3ErrorCode.NOT_IMPLEMENTED);
    assertThat(error("POST", "/bucket/key?tagging")).isEqualTo(S3ErrorCode.NOT_IMPLEMENTED);
    assertThat(error("HEAD", "/bucket?tagging")).isEqualTo(S3ErrorCode.NOT_IMPLEMENTED);
    assertThat(error("PUT", "/bucket/key?versioning")).isEqualTo(S3ErrorCode.NOT_IMPLEMENTED);
    assertThat(error("DELETE", "/bucket?versioning")).isEqualTo(S3ErrorCode.NOT_IMPLEMENTED);
    assertThat(error("POST", "/bucket/key?restore")).isEqualTo(S3ErrorCode.NOT_IMPLEMENTED);
    assertThat(error("OPTIONS", "/")).isEqualTo(S3ErrorCode.METHOD_NOT_ALLOWED);
    assertThat(error("GET", "/bucket/key?cors")).isEqualTo(S3ErrorCode.NOT_IMPLEMENTED);
    assertThat(error("POST", "/bucket?cors")).isEqualTo(S3ErrorCode.METHOD_NOT_ALLOWED);
    assertThat(error("POST", "/bucket")).isEqualTo(S3ErrorCode.NOT_IMPLEMENTED);
    assertThat(error("POST", "/bucket/key")).isEqualTo(S3ErrorCode.METHOD_NOT_ALLOWED);
    assertThat(error("PUT", "/")).isEqualTo(S3ErrorCode.METHOD_NOT_ALLOWED);
  }

  @Test
  void route_whenInvalidInput_namesTheError() {
    assertThat(error("GET", "/Bucket/k")).isEqualTo(S3ErrorCode.INVALID_BUCKET_NAME);
    assertThat(error("GET", "/ab/k")).isEqualTo(S3ErrorCode.INVALID_BUCKET_NAME);
    assertThat(error("GET", "//k")).isEqualTo(S3ErrorCode.INVALID_BUCKET_NAME);
    assertThat(error("GET", "/192.168.1.1/k")).isEqualTo(S3ErrorCode.INVALID_BUCKET_NAME);
    assertThat(error("GET", "/b%zz/k")).isEqualTo(S3ErrorCode.INVALID_URI);
    assertThat(error("GET", "/bucket/%C3%28")).isEqualTo(S3ErrorCode.INVALID_URI);
    assertThat(error("GET", "/bucket?list-type=3")).isEqualTo(S3ErrorCode.INVALID_ARGUMENT);
    assertThat(error("PUT", "/bucket/k?uploadId=u")).isEqualTo(S3ErrorCode.INVALID_ARGUMENT);
    assertThat(error("PUT", "/bucket/k?partNumber=1")).isEqualTo(S3ErrorCode.INVALID_ARGUMENT);
    assertThat(error("PUT", "/bucket/" + "k".repeat(1024))).isNull();
    assertThat(error("PUT", "/bucket/" + "k".repeat(1025)))
        .isEqualTo(S3ErrorCode.KEY_TOO_LONG_ERROR);
    assertThat(error("PUT", "/bucket/" + "%C3%A9".repeat(512))).isNull();
    assertThat(error("PUT", "/bucket/" + "%C3%A9".repeat(512) + "x"))
        .isEqualTo(S3ErrorCode.KEY_TOO_LONG_ERROR);
  }

  @Test
  void bucketNames_whenValidatedAgainstS3Rules_acceptAndRefuse() {
    for (String ok : new String[] {"abc", "a.b-c", "my-bucket.2026", "a".repeat(63), "1bucket"}) {
      assertThat(BucketNames.isValid(ok)).as(ok).isTrue();
    }
    for (String bad :
        new String[] {
          "ab",
          "a".repeat(64),
          "-abc",
          "abc-",
          ".abc",
          "abc.",
          "a..b",
          "a.-b",
          "a_b",
          "ABC",
          "10.0.0.1",
          "xn--abc",
          "sthree-abc",
          "abc-s3alias",
          "abc--ol-s3",
          "a b"
        }) {
      assertThat(BucketNames.isValid(bad)).as(bad).isFalse();
    }
    assertThatThrownBy(() -> BucketNames.validate("A"))
        .isInstanceOfSatisfying(
            S3Exception.class, e -> assertThat(e.details()).containsEntry("BucketName", "A"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"10001", "0", "-1", "abc", "", "1.5", "+1", "99999999999"})
  void route_whenPartNumberOutOfRange_answersInvalidArgument(String partNumber) {
    String query = "partNumber=" + partNumber + "&uploadId=u";
    assertThat(error("PUT", "/b1k/key?" + query))
        .as("UploadPart")
        .isEqualTo(S3ErrorCode.INVALID_ARGUMENT);
    assertThat(error("PUT", "/b1k/key?" + query, "x-amz-copy-source", "/s/k"))
        .as("UploadPartCopy")
        .isEqualTo(S3ErrorCode.INVALID_ARGUMENT);
    assertThat(error("GET", "/b1k/key?partNumber=" + partNumber))
        .as("GetObject")
        .isEqualTo(S3ErrorCode.INVALID_ARGUMENT);
    assertThat(error("HEAD", "/b1k/key?partNumber=" + partNumber))
        .as("HeadObject")
        .isEqualTo(S3ErrorCode.INVALID_ARGUMENT);
  }

  @Test
  void route_whenPartNumberInvalid_namesTheArgument() {
    assertThatThrownBy(() -> op("PUT", "/b1k/key?partNumber=10001&uploadId=u"))
        .isInstanceOfSatisfying(
            S3Exception.class,
            e -> {
              assertThat(e.details()).containsEntry("ArgumentName", "partNumber");
              assertThat(e.details()).containsEntry("ArgumentValue", "10001");
            });
  }

  @ParameterizedTest
  @ValueSource(strings = {"1", "10000", "0010"})
  void route_whenPartNumberInRange_classifies(String partNumber) {
    assertThat(op("PUT", "/b1k/key?partNumber=" + partNumber + "&uploadId=u"))
        .isEqualTo(S3Operation.UPLOAD_PART);
    assertThat(op("GET", "/b1k/key?partNumber=" + partNumber)).isEqualTo(S3Operation.GET_OBJECT);
  }
}
