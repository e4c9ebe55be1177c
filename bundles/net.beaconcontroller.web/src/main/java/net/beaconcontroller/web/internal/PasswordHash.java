package net.beaconcontroller.web.internal;

import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;

import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;

/**
 * A password stored as {@code pbkdf2-sha256:ITERATIONS:SALT:HASH} (salt and hash in Base64), so
 * {@code beacon.properties} never holds the password itself.
 */
record PasswordHash(int iterations, byte[] salt, byte[] hash) {
    private static final String SCHEME = "pbkdf2-sha256";
    private static final int DEFAULT_ITERATIONS = 210_000;

    static PasswordHash of(char[] password) {
        var salt = new byte[16];
        new SecureRandom().nextBytes(salt);
        return new PasswordHash(DEFAULT_ITERATIONS, salt, derive(password, salt, DEFAULT_ITERATIONS));
    }

    /** @throws IllegalArgumentException when {@code text} is not in the stored form */
    static PasswordHash parse(String text) {
        var parts = text.split(":");
        if (parts.length != 4 || !parts[0].equals(SCHEME)) {
            throw new IllegalArgumentException("expected " + SCHEME + ":ITERATIONS:SALT:HASH, as printed by"
                    + " beacon:webpassword");
        }
        try {
            int iterations = Integer.parseInt(parts[1]);
            var salt = Base64.getDecoder().decode(parts[2]);
            var hash = Base64.getDecoder().decode(parts[3]);
            if (iterations < 1 || salt.length < 8 || hash.length != 32) {
                throw new IllegalArgumentException("iterations, salt or hash out of range");
            }
            return new PasswordHash(iterations, salt, hash);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("expected " + SCHEME + ":ITERATIONS:SALT:HASH, as printed by"
                    + " beacon:webpassword (" + e.getMessage() + ")");
        }
    }

    boolean matches(char[] password) {
        return MessageDigest.isEqual(hash, derive(password, salt, iterations));
    }

    @Override
    public String toString() {
        var b64 = Base64.getEncoder();
        return SCHEME + ":" + iterations + ":" + b64.encodeToString(salt) + ":" + b64.encodeToString(hash);
    }

    private static byte[] derive(char[] password, byte[] salt, int iterations) {
        try {
            var spec = new PBEKeySpec(password, salt, iterations, 256);
            return SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256").generateSecret(spec).getEncoded();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("PBKDF2WithHmacSHA256 is part of every Java 17 runtime", e);
        }
    }
}
