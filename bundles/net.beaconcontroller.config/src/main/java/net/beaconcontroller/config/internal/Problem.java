package net.beaconcontroller.config.internal;

/**
 * A value that is not allowed, as the one line every report uses:
 * {@code <source>: <key> = '<value>' is not allowed: expected <what>}.
 *
 * @param allowed what would be accepted, starting with "expected" (as {@link net.beaconcontroller.config.SettingException#allowed()})
 */
record Problem(String source, String key, String value, String allowed) {
    static Problem expected(Source source, String key, String value, String what) {
        return new Problem(source.prefix(), key, value.trim(), "expected " + what);
    }

    String line() {
        return source + ": " + key + " = '" + value + "' is not allowed: " + allowed;
    }
}
