package io.racs.repos.azure;

import java.util.Objects;

/**
 * How an {@code azure} repository authenticates: an account name and shared key, a SAS token, or a
 * connection string (which names the endpoint too). {@link #toString()} never shows a secret, so
 * descriptions and logs may print it.
 */
public sealed interface AzureCredentials {
  /** The storage account name and its shared key (base64). */
  static AzureCredentials accountKey(String accountName, String accountKey) {
    return new AccountKey(accountName, accountKey);
  }

  /** A shared access signature, with or without its leading {@code ?}. */
  static AzureCredentials sasToken(String token) {
    return new SasToken(token);
  }

  /** A connection string as the portal or Azurite gives it. */
  static AzureCredentials connectionString(String connectionString) {
    return new ConnectionString(connectionString);
  }

  /** Account name and shared key. */
  record AccountKey(String accountName, String accountKey) implements AzureCredentials {
    /** Checks both are present. */
    public AccountKey {
      Objects.requireNonNull(accountName, "accountName");
      Objects.requireNonNull(accountKey, "accountKey");
    }

    @Override
    public String toString() {
      return "accountKey(" + accountName + ")";
    }
  }

  /** A SAS token. */
  record SasToken(String token) implements AzureCredentials {
    /** Checks the token is present. */
    public SasToken {
      Objects.requireNonNull(token, "token");
    }

    @Override
    public String toString() {
      return "sasToken";
    }
  }

  /** A connection string. */
  record ConnectionString(String connectionString) implements AzureCredentials {
    /** Checks the string is present. */
    public ConnectionString {
      Objects.requireNonNull(connectionString, "connectionString");
    }

    @Override
    public String toString() {
      return "connectionString";
    }
  }
}
