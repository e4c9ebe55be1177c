package net.beaconcontroller.config;

/**
 * A setting a component cannot work with, found when it activates (a check its metatype cannot express: a host name,
 * one setting against another). Thrown from {@code @Activate} or {@code @Modified}; the configuration bundle reports
 * it as one line naming where the value came from, the key, the value and what is allowed, and at start-up stops
 * Beacon with exit code 2.
 */
public final class SettingException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String key;
    private final String value;
    private final String allowed;

    /**
     * @param key     the full key as in {@code beacon.properties}, e.g. {@code controller.echoTimeout}
     * @param value   the value as given
     * @param allowed what would be accepted, e.g. "expected an IP address or host name"
     */
    public SettingException(String key, String value, String allowed) {
        super(key + " = '" + value + "' is not allowed: " + allowed);
        this.key = key;
        this.value = value;
        this.allowed = allowed;
    }

    public String key() {
        return key;
    }

    public String value() {
        return value;
    }

    public String allowed() {
        return allowed;
    }
}
