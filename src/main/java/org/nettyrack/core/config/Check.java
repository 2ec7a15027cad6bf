package org.nettyrack.core.config;

/**
 * The one way a settings record refuses a value: an {@link IllegalArgumentException} whose
 * message names the setting and the bad value. Ruby turns the message, unchanged, into its
 * ConfigError, so the messages are part of the contract.
 */
public final class Check {
    private Check() {
    }

    public static void that(boolean ok, String message) {
        if (!ok) {
            throw new IllegalArgumentException(message);
        }
    }
}
