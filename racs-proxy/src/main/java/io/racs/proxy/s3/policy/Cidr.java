package io.racs.proxy.s3.policy;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;

/**
 * An IPv4 or IPv6 block of {@code IpAddress} conditions ({@code 203.0.113.0/24}, {@code
 * 2001:db8::/32}; an address alone is its own block). Only literal addresses are read, never a host
 * name, so parsing a policy never resolves a name.
 *
 * @param network the block's address bytes (4 or 16), host bits cleared
 * @param prefixBits how many leading bits name the block
 */
record Cidr(byte[] network, int prefixBits) {

  /** The block {@code text} names, or null when it names none. */
  static Cidr parse(String text) {
    String s = text.strip();
    int slash = s.indexOf('/');
    byte[] address = literal(slash < 0 ? s : s.substring(0, slash));
    if (address == null) {
      return null;
    }
    int bits = address.length * 8;
    if (slash >= 0) {
      String p = s.substring(slash + 1);
      if (p.isEmpty() || p.length() > 3 || !p.chars().allMatch(Character::isDigit)) {
        return null;
      }
      bits = Integer.parseInt(p);
      if (bits > address.length * 8) {
        return null;
      }
    }
    return new Cidr(mask(address, bits), bits);
  }

  /** Whether {@code address} (a literal) lies in this block; false for what is no address. */
  boolean contains(String address) {
    byte[] a = literal(address.strip());
    return a != null && a.length == network.length && Arrays.equals(mask(a, prefixBits), network);
  }

  private static byte[] mask(byte[] address, int bits) {
    byte[] out = address.clone();
    for (int i = 0; i < out.length; i++) {
      int keep = Math.max(0, Math.min(8, bits - i * 8));
      out[i] = (byte) (out[i] & (0xff << (8 - keep)));
    }
    return out;
  }

  private static byte[] literal(String s) {
    if (s.isEmpty() || s.length() > 45) {
      return null;
    }
    if (s.indexOf(':') < 0) {
      return ipv4(s);
    }
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (!(Character.digit(c, 16) >= 0 || c == ':' || c == '.')) {
        return null;
      }
    }
    try {
      // A literal of hex digits, colons and dots: InetAddress parses it without a lookup.
      byte[] bytes = InetAddress.getByName(s).getAddress();
      return bytes.length == 16 ? bytes : null;
    } catch (UnknownHostException e) {
      return null;
    }
  }

  private static byte[] ipv4(String s) {
    String[] parts = s.split("\\.", -1);
    if (parts.length != 4) {
      return null;
    }
    byte[] out = new byte[4];
    for (int i = 0; i < 4; i++) {
      String p = parts[i];
      if (p.isEmpty() || p.length() > 3 || !p.chars().allMatch(Character::isDigit)) {
        return null;
      }
      int v = Integer.parseInt(p);
      if (v > 255) {
        return null;
      }
      out[i] = (byte) v;
    }
    return out;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Cidr c && c.prefixBits == prefixBits && Arrays.equals(c.network, network);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(network) * 31 + prefixBits;
  }

  @Override
  public String toString() {
    return Arrays.toString(network) + "/" + prefixBits;
  }
}
