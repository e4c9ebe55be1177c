package net.beaconcontroller.config.internal;

import org.osgi.service.metatype.AttributeDefinition;

/** An attribute definition as a metatype implementation gives it: validate() knows min/max, nothing else does. */
record FakeAd(String id, int type, int cardinality, Long min, Long max, String[] options, String[] defaults)
        implements AttributeDefinition {

    static FakeAd integer(String id, long min, long max, String def) {
        return new FakeAd(id, INTEGER, 0, min, max, null, new String[] {def});
    }

    static FakeAd of(String id, int type, String def) {
        return new FakeAd(id, type, 0, null, null, null, def == null ? null : new String[] {def});
    }

    static FakeAd options(String id, String def, String... options) {
        return new FakeAd(id, STRING, 0, null, null, options, new String[] {def});
    }

    static FakeAd list(String id, int type) {
        return new FakeAd(id, type, Integer.MAX_VALUE, null, null, null, new String[0]);
    }

    @Override
    public String getName() {
        return id;
    }

    @Override
    public String getID() {
        return id;
    }

    @Override
    public String getDescription() {
        return "The " + id + ".";
    }

    @Override
    public int getCardinality() {
        return cardinality;
    }

    @Override
    public int getType() {
        return type;
    }

    @Override
    public String[] getOptionValues() {
        return options;
    }

    @Override
    public String[] getOptionLabels() {
        return options;
    }

    @Override
    public String validate(String value) {
        if (min == null && max == null) {
            return "";
        }
        long v = Long.parseLong(value);
        return (min != null && v < min) || (max != null && v > max) ? "out of range" : "";
    }

    @Override
    public String[] getDefaultValue() {
        return defaults;
    }
}
