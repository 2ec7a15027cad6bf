package org.nettyrack.core.ops;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The token a control request must show, kept as its SHA-256 digest and compared with {@link
 * MessageDigest#isEqual}, in time that does not depend on where the tokens differ, or on their
 * lengths. Where a request carries it ({@code Authorization: Bearer TOKEN}, or {@code ?token=}
 * as with Puma's control app) is the transport's to read.
 */
public final class ControlToken {
    private final byte[] digest;

    public ControlToken(String token) {
        this.digest = sha256(token);
    }

    /** Whether given (null: none shown) is the token. */
    public boolean matches(String given) {
        return given != null && MessageDigest.isEqual(digest, sha256(given));
    }

    /** The token in an {@code Authorization} header's value ({@code Bearer TOKEN}), or null. */
    public static String bearer(String authorization) {
        return authorization != null && authorization.regionMatches(true, 0, "Bearer ", 0, 7)
            ? authorization.substring(7).trim() : null;
    }

    private static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
