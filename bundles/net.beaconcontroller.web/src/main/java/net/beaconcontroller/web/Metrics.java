package net.beaconcontroller.web;

import java.util.regex.Pattern;

/**
 * What {@code /metrics} serves, in the Prometheus text exposition format (version 0.0.4): each contribution adds its
 * metric families through {@link IWebManageable#metrics}. Names follow Prometheus' conventions: {@code beacon_}
 * first, the unit last, {@code _total} for counters.
 */
public final class Metrics {
    private static final Pattern NAME = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");
    private static final Pattern LABEL = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]*");

    private final StringBuilder text = new StringBuilder(4096);

    /** A family of samples that only grow (until a restart). */
    public Family counter(String name, String help) {
        return family(name, help, "counter");
    }

    /** A family of samples that go up and down. */
    public Family gauge(String name, String help) {
        return family(name, help, "gauge");
    }

    /**
     * A family of observations: add {@code name_sum} and {@code name_count} samples through
     * {@link Family#add(String, double, String...)}.
     */
    public Family summary(String name, String help) {
        return family(name, help, "summary");
    }

    private Family family(String name, String help, String type) {
        check(NAME, name, "metric name");
        text.append("# HELP ").append(name).append(' ').append(help.replace("\\", "\\\\").replace("\n", "\\n"))
                .append('\n').append("# TYPE ").append(name).append(' ').append(type).append('\n');
        return new Family(name);
    }

    /** The samples of one family, written as they are added. */
    public final class Family {
        private final String name;

        private Family(String name) {
            this.name = name;
        }

        /**
         * One sample.
         *
         * @param labels label names and values, alternating
         */
        public Family add(double value, String... labels) {
            return add("", value, labels);
        }

        /** One sample of the family's {@code name + suffix} series, e.g. {@code _sum} of a summary. */
        public Family add(String suffix, double value, String... labels) {
            if (labels.length % 2 != 0) {
                throw new IllegalArgumentException("labels come in name, value pairs");
            }
            text.append(name).append(suffix);
            if (labels.length > 0) {
                text.append('{');
                for (int i = 0; i < labels.length; i += 2) {
                    check(LABEL, labels[i], "label name");
                    text.append(i == 0 ? "" : ",").append(labels[i]).append("=\"").append(escape(labels[i + 1]))
                            .append('"');
                }
                text.append('}');
            }
            text.append(' ').append(number(value)).append('\n');
            return this;
        }
    }

    /** The exposition so far. */
    public String text() {
        return text.toString();
    }

    private static String number(double v) {
        if (Double.isNaN(v)) {
            return "NaN";
        }
        if (Double.isInfinite(v)) {
            return v > 0 ? "+Inf" : "-Inf";
        }
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : Double.toString(v);
    }

    private static String escape(String value) {
        return value.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }

    private static void check(Pattern p, String s, String what) {
        if (!p.matcher(s).matches()) {
            throw new IllegalArgumentException("not a Prometheus " + what + ": '" + s + "'");
        }
    }
}
