package net.beaconcontroller.config.internal;

/** One key as a user wrote it, before any checking. */
record RawSetting(String key, String value, Source source) {
}
