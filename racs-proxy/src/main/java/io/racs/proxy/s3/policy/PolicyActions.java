package io.racs.proxy.s3.policy;

import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * The {@code s3:} actions a policy may name: those of the operations RACS serves, as AWS names
 * them. An {@code Action} pattern must match at least one of them ({@code s3:*}, {@code s3:Get*}),
 * or the policy is refused: a pattern that matches nothing RACS serves is a typing mistake or an
 * action RACS cannot enforce, and either way the author would be misled.
 */
public final class PolicyActions {
  /** Every action RACS judges, in AWS's spelling. */
  public static final Set<String> ALL =
      Set.copyOf(
          List.of(
              "s3:AbortMultipartUpload",
              "s3:BypassGovernanceRetention",
              "s3:CreateBucket",
              "s3:DeleteBucket",
              "s3:DeleteBucketPolicy",
              "s3:DeleteObject",
              "s3:DeleteObjectTagging",
              "s3:DeleteObjectVersion",
              "s3:DeleteObjectVersionTagging",
              "s3:GetBucketAcl",
              "s3:GetBucketCORS",
              "s3:GetBucketLocation",
              "s3:GetBucketObjectLockConfiguration",
              "s3:GetBucketPolicy",
              "s3:GetBucketPolicyStatus",
              "s3:GetBucketTagging",
              "s3:GetBucketVersioning",
              "s3:GetEncryptionConfiguration",
              "s3:GetLifecycleConfiguration",
              "s3:GetObject",
              "s3:GetObjectAcl",
              "s3:GetObjectAttributes",
              "s3:GetObjectLegalHold",
              "s3:GetObjectRetention",
              "s3:GetObjectTagging",
              "s3:GetObjectVersion",
              "s3:GetObjectVersionAcl",
              "s3:GetObjectVersionAttributes",
              "s3:GetObjectVersionTagging",
              "s3:ListAllMyBuckets",
              "s3:ListBucket",
              "s3:ListBucketMultipartUploads",
              "s3:ListBucketVersions",
              "s3:ListMultipartUploadParts",
              "s3:PutBucketAcl",
              "s3:PutBucketCORS",
              "s3:PutBucketObjectLockConfiguration",
              "s3:PutBucketPolicy",
              "s3:PutBucketTagging",
              "s3:PutBucketVersioning",
              "s3:PutEncryptionConfiguration",
              "s3:PutLifecycleConfiguration",
              "s3:PutObject",
              "s3:PutObjectAcl",
              "s3:PutObjectLegalHold",
              "s3:PutObjectRetention",
              "s3:PutObjectTagging",
              "s3:PutObjectVersionAcl",
              "s3:PutObjectVersionTagging"));

  private static final Set<String> LOWER =
      Set.copyOf(ALL.stream().map(a -> a.toLowerCase(Locale.ROOT)).toList());

  private PolicyActions() {}

  /** Whether {@code action} (exact, any case) is one RACS judges. */
  public static boolean known(String action) {
    return LOWER.contains(action.toLowerCase(Locale.ROOT));
  }

  /** The actions {@code pattern} matches (action names compare without regard to case). */
  public static Set<String> matching(String pattern) {
    Set<String> out = new TreeSet<>();
    for (String a : ALL) {
      if (Wildcards.matchesIgnoreCase(pattern, a)) {
        out.add(a);
      }
    }
    return out;
  }
}
