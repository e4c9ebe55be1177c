package net.beaconcontroller.config.internal;

import java.lang.reflect.Array;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import org.osgi.service.metatype.AttributeDefinition;

/**
 * One attribute of a component's metatype as a setting: it turns the text a user wrote into the typed value
 * Configuration Admin stores, and says in words what it accepts. All of it comes from the {@link AttributeDefinition}
 * (type, cardinality, options, {@code validate()}), so a bundle's keys are checked by the bundle's own metatype.
 */
final class AttributeSpec {
    private final AttributeDefinition ad;
    private final IntegerBounds bounds;

    AttributeSpec(AttributeDefinition ad) {
        this.ad = ad;
        this.bounds = integerRange(ad.getType()) == null ? null : deriveBounds();
    }

    String id() {
        return ad.getID();
    }

    String description() {
        return ad.getDescription() == null ? "" : ad.getDescription().strip();
    }

    /**
     * Whether the value is a secret (a password: {@code type = AttributeType.PASSWORD} in the metatype): listings and
     * answers show {@link Configurator#HIDDEN} instead.
     */
    boolean secret() {
        return ad.getType() == AttributeDefinition.PASSWORD;
    }

    boolean multiValued() {
        return ad.getCardinality() != 0;
    }

    /** Whether {@code <key>[NAME]} family keys can supply elements: a multi-valued text attribute. */
    boolean acceptsElements() {
        return multiValued() && (ad.getType() == AttributeDefinition.STRING);
    }

    /** The default as a user would write it in the file (list elements joined by commas). */
    String defaultText() {
        String[] d = ad.getDefaultValue();
        return d == null ? "" : String.join(",", d);
    }

    /** What a user may write, e.g. "an integer from 1 to 256", "one of FLOOD, ALL". */
    String allowed() {
        return multiValued() ? "a comma-separated list of " + scalarAllowed(true) : scalarAllowed(false);
    }

    private String scalarAllowed(boolean plural) {
        String[] options = ad.getOptionValues();
        if (options != null && options.length > 0) {
            return (plural ? "values from " : "one of ") + String.join(", ", options);
        }
        if (bounds != null) {
            return bounds.describe(plural);
        }
        return switch (ad.getType()) {
            case AttributeDefinition.BOOLEAN -> plural ? "true or false values" : "true or false";
            case AttributeDefinition.LONG, AttributeDefinition.INTEGER, AttributeDefinition.SHORT,
                    AttributeDefinition.BYTE -> plural ? "integers" : "an integer";
            case AttributeDefinition.DOUBLE, AttributeDefinition.FLOAT, AttributeDefinition.BIGDECIMAL,
                    AttributeDefinition.BIGINTEGER -> plural ? "numbers" : "a number";
            case AttributeDefinition.CHARACTER -> plural ? "single characters" : "a single character";
            default -> plural ? "values" : "a text";
        };
    }

    /**
     * The typed value for Configuration Admin: a scalar, or an array for a multi-valued attribute (the text split at
     * commas, empty elements dropped).
     *
     * @return empty when the text is not allowed (then {@link #allowed()} says why)
     */
    Optional<Object> convert(String raw) {
        if (!multiValued()) {
            return scalar(raw.trim());
        }
        var items = Arrays.stream(raw.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
        return convertElements(items);
    }

    /** Already split elements (the family form) as the attribute's array. */
    Optional<Object> convertElements(List<String> items) {
        var values = new ArrayList<Object>();
        for (String item : items) {
            var v = scalar(item);
            if (v.isEmpty()) {
                return Optional.empty();
            }
            values.add(v.get());
        }
        Object array = Array.newInstance(javaType(), values.size());
        for (int i = 0; i < values.size(); i++) {
            Array.set(array, i, values.get(i));
        }
        return Optional.of(array);
    }

    private Optional<Object> scalar(String text) {
        Object value;
        try {
            value = parse(text);
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
        if (value == null) {
            return Optional.empty();
        }
        String[] options = ad.getOptionValues();
        if (options != null && options.length > 0 && !Arrays.asList(options).contains(value.toString())) {
            return Optional.empty();
        }
        String verdict = ad.validate(value.toString());
        return verdict == null || verdict.isEmpty() ? Optional.of(value) : Optional.empty();
    }

    /** @throws IllegalArgumentException (NumberFormatException) when the text is not of the type */
    private Object parse(String text) {
        return switch (ad.getType()) {
            case AttributeDefinition.LONG -> Long.valueOf(text);
            case AttributeDefinition.INTEGER -> Integer.valueOf(text);
            case AttributeDefinition.SHORT -> Short.valueOf(text);
            case AttributeDefinition.BYTE -> Byte.valueOf(text);
            case AttributeDefinition.DOUBLE -> Double.valueOf(text);
            case AttributeDefinition.FLOAT -> Float.valueOf(text);
            case AttributeDefinition.BIGINTEGER -> new BigInteger(text);
            case AttributeDefinition.BIGDECIMAL -> new BigDecimal(text);
            case AttributeDefinition.CHARACTER -> text.length() == 1 ? text.charAt(0) : null;
            case AttributeDefinition.BOOLEAN -> switch (text.toLowerCase(Locale.ROOT)) {
                case "true" -> Boolean.TRUE;
                case "false" -> Boolean.FALSE;
                default -> null;
            };
            default -> text;
        };
    }

    private Class<?> javaType() {
        return switch (ad.getType()) {
            case AttributeDefinition.LONG -> Long.class;
            case AttributeDefinition.INTEGER -> Integer.class;
            case AttributeDefinition.SHORT -> Short.class;
            case AttributeDefinition.BYTE -> Byte.class;
            case AttributeDefinition.DOUBLE -> Double.class;
            case AttributeDefinition.FLOAT -> Float.class;
            case AttributeDefinition.BIGINTEGER -> BigInteger.class;
            case AttributeDefinition.BIGDECIMAL -> BigDecimal.class;
            case AttributeDefinition.CHARACTER -> Character.class;
            case AttributeDefinition.BOOLEAN -> Boolean.class;
            default -> String.class;
        };
    }

    /** The type's own limits, for the integer types. */
    private static long[] integerRange(int type) {
        return switch (type) {
            case AttributeDefinition.LONG -> new long[] {Long.MIN_VALUE, Long.MAX_VALUE};
            case AttributeDefinition.INTEGER -> new long[] {Integer.MIN_VALUE, Integer.MAX_VALUE};
            case AttributeDefinition.SHORT -> new long[] {Short.MIN_VALUE, Short.MAX_VALUE};
            case AttributeDefinition.BYTE -> new long[] {Byte.MIN_VALUE, Byte.MAX_VALUE};
            default -> null;
        };
    }

    private IntegerBounds deriveBounds() {
        long[] range = integerRange(ad.getType());
        Long inside = null;
        String[] d = ad.getDefaultValue();
        if (d != null && d.length > 0) {
            try {
                inside = Long.valueOf(d[0].trim());
            } catch (NumberFormatException e) {
                // A default that is not a number cannot anchor the search; 0 and 1 are tried instead.
            }
        }
        return IntegerBounds.derive(v -> {
            String verdict = ad.validate(Long.toString(v));
            return verdict == null || verdict.isEmpty();
        }, range[0], range[1], inside);
    }
}
