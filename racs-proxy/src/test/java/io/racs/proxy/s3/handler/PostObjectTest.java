package io.racs.proxy.s3.handler;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.proxy.s3.auth.SigV4;
import io.racs.testkit.SeededBytes;
import io.racs.testkit.TestSeed;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.s3.model.ServerSideEncryption;
import software.amazon.awssdk.services.s3.model.ServerSideEncryptionRule;

/**
 * Proves browser form uploads (POST Object) through the S3 front end: a form whose SigV4-signed
 * policy holds stores its file byte-exact under its key (with {@code ${filename}}) and answers 204,
 * 200, 201 with a PostResponse, or a 303 redirect; a bad signature, an expired policy, a failed
 * condition, a field no condition names, a file outside {@code content-length-range}, a missing
 * field and a field asking for what the proxy does not do are refused and store nothing.
 */
class PostObjectTest {
  private static final String BUCKET = "forms";
  private static final String ACCESS = "test-access";
  private static final String SECRET = "test-secret-key";
  private static final String BOUNDARY = "----RacsFormBoundary7MA4YWxkTrZu0gW";
  @RegisterExtension static final S3FrontEnd proxy = S3FrontEnd.withBucket(BUCKET).encrypting();

  private static final byte[] DATA = data();

  private static byte[] data() {
    byte[] b = SeededBytes.bytes(TestSeed.get(), 200_000);
    // The file holds what looks like a boundary, less its last character.
    byte[] fake = ("\r\n--" + BOUNDARY.substring(0, BOUNDARY.length() - 1)).getBytes();
    System.arraycopy(fake, 0, b, 1000, fake.length);
    // ... followed by anything but that character (a random one made it the boundary, 1 in 256).
    b[1000 + fake.length] = (byte) (BOUNDARY.charAt(BOUNDARY.length() - 1) ^ 1);
    return b;
  }

  /** A form and the policy conditions that sign it. */
  private static final class Form {
    final Map<String, String> fields = new LinkedHashMap<>();
    final List<String> conditions = new ArrayList<>();
    Instant expiration = Instant.now().plus(1, ChronoUnit.HOURS);
    String signatureOverride;
    byte[] file = DATA;
    String fileName = "photo.bin";

    /** Signs the policy the SigV2 way (AWSAccessKeyId and signature) instead of SigV4. */
    boolean v2;

    /** Sends no policy and no signature: an anonymous form. */
    boolean anonymous;

    Form(String key) {
      field("key", key);
      conditions.add("[\"starts-with\", \"$key\", \"\"]");
      conditions.add("{\"bucket\": \"" + BUCKET + "\"}");
    }

    /** A field with an exact condition. */
    Form field(String name, String value) {
      fields.put(name, value);
      if (!name.equals("key")) {
        conditions.add("[\"eq\", \"$" + name + "\", \"" + value + "\"]");
      }
      return this;
    }

    byte[] body() {
      String date =
          DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'")
              .withZone(ZoneOffset.UTC)
              .format(Instant.now());
      String credential = ACCESS + "/" + date.substring(0, 8) + "/us-east-1/s3/aws4_request";
      List<String> all = new ArrayList<>(conditions);
      if (!v2) {
        all.add("{\"x-amz-algorithm\": \"AWS4-HMAC-SHA256\"}");
        all.add("{\"x-amz-credential\": \"" + credential + "\"}");
        all.add("{\"x-amz-date\": \"" + date + "\"}");
      }
      String policy =
          Base64.getEncoder()
              .encodeToString(
                  ("{\"expiration\": \""
                          + expiration.truncatedTo(ChronoUnit.SECONDS)
                          + "\", \"conditions\": ["
                          + String.join(", ", all)
                          + "]}")
                      .getBytes(StandardCharsets.UTF_8));
      byte[] key = SigV4.deriveSigningKey(SECRET, date.substring(0, 8), "us-east-1", "s3");
      Map<String, String> out = new LinkedHashMap<>(fields);
      if (anonymous) {
        // no policy, no signature
      } else if (v2) {
        out.put("AWSAccessKeyId", ACCESS);
        out.put("policy", policy);
        out.put("signature", signatureOverride != null ? signatureOverride : hmacSha1(policy));
      } else {
        out.put("x-amz-algorithm", "AWS4-HMAC-SHA256");
        out.put("x-amz-credential", credential);
        out.put("x-amz-date", date);
        out.put("policy", policy);
        out.put(
            "x-amz-signature",
            signatureOverride != null ? signatureOverride : SigV4.sign(key, policy));
      }
      ByteArrayOutputStream body = new ByteArrayOutputStream();
      out.forEach(
          (name, value) ->
              body.writeBytes(
                  ("--"
                          + BOUNDARY
                          + "\r\nContent-Disposition: form-data; name=\""
                          + name
                          + "\"\r\n\r\n"
                          + value
                          + "\r\n")
                      .getBytes(StandardCharsets.UTF_8)));
      if (file != null) {
        body.writeBytes(
            ("--"
                    + BOUNDARY
                    + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\""
                    + fileName
                    + "\"\r\nContent-Type: application/octet-stream\r\n\r\n")
                .getBytes(StandardCharsets.UTF_8));
        body.writeBytes(file);
        body.writeBytes("\r\n".getBytes(StandardCharsets.UTF_8));
      }
      body.writeBytes(("--" + BOUNDARY + "--\r\n").getBytes(StandardCharsets.UTF_8));
      return body.toByteArray();
    }

    S3FrontEnd.Raw post() throws Exception {
      return proxy.sendUnsigned(
          "POST",
          "/" + BUCKET,
          Map.of("Content-Type", "multipart/form-data; boundary=" + BOUNDARY),
          body());
    }
  }

  /** SigV2's signature of a form: base64 HMAC-SHA1 of the base64 policy under the secret. */
  private static String hmacSha1(String policy) {
    try {
      javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA1");
      mac.init(
          new javax.crypto.spec.SecretKeySpec(SECRET.getBytes(StandardCharsets.UTF_8), "HmacSHA1"));
      return Base64.getEncoder()
          .encodeToString(mac.doFinal(policy.getBytes(StandardCharsets.UTF_8)));
    } catch (java.security.GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  private static byte[] stored(String key) {
    return proxy.s3().getObjectAsBytes(b -> b.bucket(BUCKET).key(key)).asByteArray();
  }

  private static void assertAbsent(String key) {
    assertThat(
            S3FrontEnd.error(() -> proxy.s3().headObject(b -> b.bucket(BUCKET).key(key)))
                .statusCode())
        .isEqualTo(404);
  }

  private static void assertRefused(Form form, int status, String code, String key)
      throws Exception {
    S3FrontEnd.Raw raw = form.post();
    assertThat(raw.status()).as(raw.text()).isEqualTo(status);
    assertThat(raw.code()).as(raw.text()).isEqualTo(code);
    assertAbsent(key);
  }

  @Test
  void post_whenPolicyHolds_stores204ByteExactWithMetadata() throws Exception {
    Form form =
        new Form("uploads/${filename}")
            .field("Content-Type", "image/png")
            .field("Cache-Control", "max-age=60")
            .field("x-amz-meta-color", "blue");
    S3FrontEnd.Raw raw = form.post();

    assertThat(raw.status()).as(raw.text()).isEqualTo(204);
    assertThat(raw.headers().firstValue("ETag")).isPresent();
    assertThat(stored("uploads/photo.bin")).isEqualTo(DATA);
    var head = proxy.s3().headObject(b -> b.bucket(BUCKET).key("uploads/photo.bin"));
    assertThat(head.contentType()).isEqualTo("image/png");
    assertThat(head.cacheControl()).isEqualTo("max-age=60");
    assertThat(head.metadata()).containsEntry("color", "blue");
  }

  @Test
  void post_whenSuccessActionStatus201_answersPostResponseXml() throws Exception {
    S3FrontEnd.Raw raw = new Form("created").field("success_action_status", "201").post();
    assertThat(raw.status()).isEqualTo(201);
    assertThat(raw.text())
        .contains("<PostResponse")
        .contains("<Bucket>" + BUCKET + "</Bucket>")
        .contains("<Key>created</Key>")
        .contains("<ETag>");
    assertThat(stored("created")).isEqualTo(DATA);
    assertThat(new Form("ok200").field("success_action_status", "200").post().status())
        .isEqualTo(200);
  }

  @Test
  void post_whenSuccessActionRedirect_answers303WithBucketKeyAndEtag() throws Exception {
    S3FrontEnd.Raw raw =
        new Form("redirected")
            .field("success_action_redirect", "https://app.example.com/done?x=1")
            .post();
    assertThat(raw.status()).isEqualTo(303);
    assertThat(raw.headers().firstValue("Location").orElseThrow())
        .startsWith("https://app.example.com/done?x=1&bucket=" + BUCKET + "&key=redirected&etag=");
    assertThat(stored("redirected")).isEqualTo(DATA);
  }

  @Test
  void post_whenBucketVersioned_answersTheVersionIdAndNoneWhenSuspended() throws Exception {
    // The other tests do not look at versions, so the class's bucket may be versioned for this.
    proxy
        .s3()
        .putBucketVersioning(
            b ->
                b.bucket(BUCKET)
                    .versioningConfiguration(
                        c ->
                            c.status(
                                software.amazon.awssdk.services.s3.model.BucketVersioningStatus
                                    .ENABLED)));
    S3FrontEnd.Raw versioned = new Form("versioned").post();
    assertThat(versioned.status()).as(versioned.text()).isEqualTo(204);
    assertThat(versioned.headers().firstValue("x-amz-version-id"))
        .hasValue(proxy.s3().headObject(b -> b.bucket(BUCKET).key("versioned")).versionId());
    proxy
        .s3()
        .putBucketVersioning(
            b ->
                b.bucket(BUCKET)
                    .versioningConfiguration(
                        c ->
                            c.status(
                                software.amazon.awssdk.services.s3.model.BucketVersioningStatus
                                    .SUSPENDED)));
    S3FrontEnd.Raw suspended = new Form("versioned").post();
    assertThat(suspended.status()).as(suspended.text()).isEqualTo(204);
    assertThat(suspended.headers().firstValue("x-amz-version-id")).isEmpty();
    assertThat(proxy.s3().headObject(b -> b.bucket(BUCKET).key("versioned")).versionId())
        .isEqualTo("null");
  }

  @Test
  void post_whenSignatureWrong_isSignatureDoesNotMatch() throws Exception {
    Form form = new Form("badsig");
    form.signatureOverride = "0".repeat(64);
    assertRefused(form, 403, "SignatureDoesNotMatch", "badsig");
  }

  @Test
  void post_whenSignedWithSigV2_stores204ByteExact() throws Exception {
    Form form = new Form("v2/${filename}").field("Content-Type", "text/plain");
    form.v2 = true;
    S3FrontEnd.Raw raw = form.post();

    assertThat(raw.status()).as(raw.text()).isEqualTo(204);
    assertThat(stored("v2/photo.bin")).isEqualTo(DATA);
    assertThat(proxy.s3().headObject(b -> b.bucket(BUCKET).key("v2/photo.bin")).contentType())
        .isEqualTo("text/plain");
  }

  @Test
  void post_whenKeyConditionNamesTheFileName_checksTheKeyWithFileNameReplaced() throws Exception {
    Form form = new Form("${filename}");
    form.conditions.add("[\"starts-with\", \"$key\", \"photo\"]");
    S3FrontEnd.Raw raw = form.post();

    assertThat(raw.status()).as(raw.text()).isEqualTo(204);
    assertThat(stored("photo.bin")).isEqualTo(DATA);
    Form other = new Form("${filename}");
    other.fileName = "other.bin";
    other.conditions.add("[\"starts-with\", \"$key\", \"photo\"]");
    assertRefused(other, 403, "AccessDenied", "other.bin");
  }

  @Test
  void post_whenSigV2SignatureWrong_isSignatureDoesNotMatchAndStoresNothing() throws Exception {
    Form form = new Form("v2-badsig");
    form.v2 = true;
    form.signatureOverride = Base64.getEncoder().encodeToString(new byte[20]);
    assertRefused(form, 403, "SignatureDoesNotMatch", "v2-badsig");
  }

  @Test
  void post_whenSigV2PolicyConditionFails_isAccessDeniedAndStoresNothing() throws Exception {
    Form form = new Form("v2-cond").field("Content-Type", "text/plain");
    form.v2 = true;
    form.conditions.add("[\"starts-with\", \"$key\", \"elsewhere/\"]");
    assertRefused(form, 403, "AccessDenied", "v2-cond");
  }

  @Test
  void post_whenPolicyExpired_isAccessDenied() throws Exception {
    Form form = new Form("expired");
    form.expiration = Instant.now().minus(1, ChronoUnit.MINUTES);
    assertRefused(form, 403, "AccessDenied", "expired");
  }

  @Test
  void post_whenConditionFails_isAccessDenied() throws Exception {
    Form eq = new Form("eq-fails").field("Content-Type", "image/png");
    eq.fields.put("Content-Type", "text/html");
    assertRefused(eq, 403, "AccessDenied", "eq-fails");

    Form prefix = new Form("outside/key");
    prefix.conditions.set(0, "[\"starts-with\", \"$key\", \"uploads/\"]");
    assertRefused(prefix, 403, "AccessDenied", "outside/key");
  }

  @Test
  void post_whenFieldNotInPolicy_isAccessDenied() throws Exception {
    Form form = new Form("extra");
    form.fields.put("x-amz-meta-sneaky", "1");
    assertRefused(form, 403, "AccessDenied", "extra");
  }

  @Test
  void post_whenFileOutsideContentLengthRange_isEntityTooLargeOrSmall() throws Exception {
    Form large = new Form("large");
    large.conditions.add("[\"content-length-range\", 1, 1000]");
    assertRefused(large, 400, "EntityTooLarge", "large");

    Form small = new Form("small");
    small.conditions.add("[\"content-length-range\", 300000, 400000]");
    assertRefused(small, 400, "EntityTooSmall", "small");

    Form fits = new Form("fits");
    fits.conditions.add("[\"content-length-range\", 200000, 200000]");
    assertThat(fits.post().status()).isEqualTo(204);
  }

  @Test
  void post_whenAnonymous_storesOnlyWhereABucketPolicyLetsAnyonePut() throws Exception {
    Form before = new Form("public/before");
    before.anonymous = true;
    assertRefused(before, 403, "AccessDenied", "public/before");

    proxy
        .s3()
        .putBucketPolicy(
            p ->
                p.bucket(BUCKET)
                    .policy(
                        "{\"Version\": \"2012-10-17\", \"Statement\": [{\"Effect\": \"Allow\","
                            + " \"Principal\": \"*\", \"Action\": \"s3:PutObject\","
                            + " \"Resource\": \"arn:aws:s3:::"
                            + BUCKET
                            + "/public/*\"}]}"));
    try {
      Form inside = new Form("public/${filename}");
      inside.anonymous = true;
      assertThat(inside.post().status()).isEqualTo(204);
      assertThat(stored("public/photo.bin")).isEqualTo(DATA);

      Form outside = new Form("private/x");
      outside.anonymous = true;
      assertRefused(outside, 403, "AccessDenied", "private/x");
      // A form that signs half-way is not anonymous: it is asked for the rest.
      Form half = new Form("public/half");
      half.anonymous = true;
      half.fields.put("x-amz-signature", "00");
      assertRefused(half, 400, "InvalidArgument", "public/half");
    } finally {
      proxy.s3().deleteBucketPolicy(d -> d.bucket(BUCKET));
    }
  }

  @Test
  void post_whenFieldMissing_isInvalidArgument() throws Exception {
    Form noFile = new Form("nofile");
    noFile.file = null;
    assertRefused(noFile, 400, "InvalidArgument", "nofile");
    Form noKey = new Form("nokey");
    noKey.fields.remove("key");
    S3FrontEnd.Raw raw = noKey.post();
    assertThat(raw.status()).isEqualTo(400);
    assertThat(raw.code()).isEqualTo("InvalidArgument");
  }

  @Test
  void post_whenFieldAsksForWhatIsNotDone_isNotImplemented() throws Exception {
    assertRefused(
        new Form("kms").field("x-amz-server-side-encryption", "aws:kms"),
        501,
        "NotImplemented",
        "kms");
    assertRefused(
        new Form("kms-key")
            .field("x-amz-server-side-encryption", "AES256")
            .field("x-amz-server-side-encryption-aws-kms-key-id", "arn:aws:kms:us-east-1:1:key/k"),
        501,
        "NotImplemented",
        "kms-key");
    assertRefused(new Form("public").field("acl", "public-read"), 501, "NotImplemented", "public");
    assertRefused(
        new Form("glacier").field("x-amz-storage-class", "GLACIER"),
        501,
        "NotImplemented",
        "glacier");
  }

  @Test
  void post_withSseS3Field_storesTheFileSealedAndSaysSo() throws Exception {
    S3FrontEnd.Raw raw = new Form("sealed").field("x-amz-server-side-encryption", "AES256").post();

    assertThat(raw.status()).as(raw.text()).isEqualTo(204);
    assertThat(raw.headers().firstValue("x-amz-server-side-encryption")).hasValue("AES256");
    var got = proxy.s3().getObjectAsBytes(b -> b.bucket(BUCKET).key("sealed"));
    assertThat(got.asByteArray()).isEqualTo(DATA);
    assertThat(got.response().serverSideEncryptionAsString()).isEqualTo("AES256");
    assertThat(got.response().contentLength()).isEqualTo(DATA.length);
    // The ETag of an SSE-S3 object is its plaintext's MD5, as for a PUT.
    assertThat(raw.headers().firstValue("ETag"))
        .hasValue(
            "\"" + HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(DATA)) + "\"");
  }

  @Test
  void post_withSseCFields_storesTheFileUnderThatKeyOnly() throws Exception {
    byte[] key = SeededBytes.bytes(TestSeed.get(), 32);
    String keyBase64 = Base64.getEncoder().encodeToString(key);
    String keyMd5 =
        Base64.getEncoder().encodeToString(MessageDigest.getInstance("MD5").digest(key));
    S3FrontEnd.Raw raw =
        new Form("customer")
            .field("x-amz-server-side-encryption-customer-algorithm", "AES256")
            .field("x-amz-server-side-encryption-customer-key", keyBase64)
            .field("x-amz-server-side-encryption-customer-key-MD5", keyMd5)
            .post();

    assertThat(raw.status()).as(raw.text()).isEqualTo(204);
    assertThat(raw.headers().firstValue("x-amz-server-side-encryption-customer-key-MD5"))
        .hasValue(keyMd5);
    assertThat(
            S3FrontEnd.error(
                    () -> proxy.s3().getObjectAsBytes(b -> b.bucket(BUCKET).key("customer")))
                .statusCode())
        .isEqualTo(400);
    assertThat(
            proxy
                .s3()
                .getObjectAsBytes(
                    b ->
                        b.bucket(BUCKET)
                            .key("customer")
                            .sseCustomerAlgorithm("AES256")
                            .sseCustomerKey(keyBase64)
                            .sseCustomerKeyMD5(keyMd5))
                .asByteArray())
        .isEqualTo(DATA);
  }

  @Test
  void post_whenSseCKeyMd5Wrong_isInvalidArgumentAndNothingStored() throws Exception {
    String keyBase64 = Base64.getEncoder().encodeToString(new byte[32]);
    assertRefused(
        new Form("customer-bad")
            .field("x-amz-server-side-encryption-customer-algorithm", "AES256")
            .field("x-amz-server-side-encryption-customer-key", keyBase64)
            .field("x-amz-server-side-encryption-customer-key-MD5", keyBase64),
        400,
        "InvalidArgument",
        "customer-bad");
  }

  @Test
  void post_whenBucketEncryptedByDefault_sealsTheFile() throws Exception {
    proxy
        .s3()
        .putBucketEncryption(
            b ->
                b.bucket(BUCKET)
                    .serverSideEncryptionConfiguration(
                        c ->
                            c.rules(
                                ServerSideEncryptionRule.builder()
                                    .applyServerSideEncryptionByDefault(
                                        d -> d.sseAlgorithm(ServerSideEncryption.AES256))
                                    .build())));
    try {
      S3FrontEnd.Raw raw = new Form("by-default").post();
      assertThat(raw.status()).as(raw.text()).isEqualTo(204);
      assertThat(raw.headers().firstValue("x-amz-server-side-encryption")).hasValue("AES256");
      assertThat(
              proxy
                  .s3()
                  .headObject(b -> b.bucket(BUCKET).key("by-default"))
                  .serverSideEncryptionAsString())
          .isEqualTo("AES256");
      assertThat(stored("by-default")).isEqualTo(DATA);
    } finally {
      proxy.s3().deleteBucketEncryption(b -> b.bucket(BUCKET));
    }
  }

  @Test
  void post_withTaggingField_storesTheTags() throws Exception {
    String tagging =
        "<Tagging><TagSet><Tag><Key>team</Key><Value>storage</Value></Tag>"
            + "<Tag><Key>env</Key><Value>test</Value></Tag></TagSet></Tagging>";
    S3FrontEnd.Raw raw = new Form("tagged").field("tagging", tagging).post();

    assertThat(raw.status()).as(raw.text()).isEqualTo(204);
    assertThat(proxy.s3().getObjectTagging(b -> b.bucket(BUCKET).key("tagged")).tagSet())
        .extracting(t -> t.key() + "=" + t.value())
        .containsExactlyInAnyOrder("team=storage", "env=test");
  }

  @Test
  void post_whenTaggingFieldInvalid_isRefusedAndNothingStored() throws Exception {
    assertRefused(
        new Form("tagged-bad").field("tagging", "<Tagging/>"), 400, "MalformedXML", "tagged-bad");
    assertRefused(
        new Form("tagged-aws")
            .field(
                "tagging",
                "<Tagging><TagSet><Tag><Key>aws:x</Key><Value>1</Value></Tag></TagSet></Tagging>"),
        400,
        "InvalidTag",
        "tagged-aws");
  }

  @Test
  void post_whenBodyNotMultipart_isMalformedPostRequest() throws Exception {
    S3FrontEnd.Raw raw =
        proxy.sendUnsigned(
            "POST",
            "/" + BUCKET,
            Map.of("Content-Type", "multipart/form-data; boundary=" + BOUNDARY),
            "not a form".getBytes(StandardCharsets.UTF_8));
    assertThat(raw.status()).isEqualTo(400);
    assertThat(raw.code()).isEqualTo("MalformedPOSTRequest");
  }
}
