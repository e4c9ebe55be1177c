package net.beaconcontroller.core.test;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;

/**
 * A component's typed settings for a test, as the configuration bundle would hand them over: the annotation's
 * defaults, overridden by {@code "key=value"} items written as in {@code beacon.properties} ({@code
 * learningswitch.idleTimeout=7}, or just {@code idleTimeout=7}; {@code controller.callbackOrdering[PACKET_IN]=a,b}
 * for an indexed family).
 */
public final class Configs {
    private Configs() {
    }

    public static <A> A of(Class<A> type, String... keyValues) {
        var values = new HashMap<String, Object>();
        var families = new HashMap<String, List<String>>();
        for (String kv : keyValues) {
            int eq = kv.indexOf('=');
            if (eq < 0) {
                throw new IllegalArgumentException("expected key=value, not " + kv);
            }
            String key = kv.substring(0, eq).trim();
            String value = kv.substring(eq + 1).trim();
            int dot = key.indexOf('.');
            String attr = dot < 0 ? key : key.substring(dot + 1);
            int bracket = attr.indexOf('[');
            if (bracket >= 0 && attr.endsWith("]")) {
                families.computeIfAbsent(attr.substring(0, bracket), k -> new ArrayList<>())
                        .add(attr.substring(bracket + 1, attr.length() - 1) + "=" + value);
            } else {
                values.put(attr, value);
            }
        }
        families.forEach((attr, elements) -> values.put(attr, elements.toArray(String[]::new)));
        return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, (proxy, method, args) -> {
            String name = method.getName();
            return switch (name) {
                case "annotationType" -> type;
                case "toString" -> type.getSimpleName() + values;
                case "hashCode" -> values.hashCode();
                case "equals" -> proxy == args[0];
                default -> {
                    if (method.getDefaultValue() == null) {
                        throw new IllegalArgumentException(type.getName() + " has no setting " + name);
                    }
                    yield values.containsKey(name) ? convert(values.get(name), method.getReturnType())
                            : method.getDefaultValue();
                }
            };
        }));
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Object convert(Object value, Class<?> to) {
        if (value instanceof String[] array) {
            return array;
        }
        String s = (String) value;
        if (to == int.class) {
            return Integer.parseInt(s);
        } else if (to == long.class) {
            return Long.parseLong(s);
        } else if (to == boolean.class) {
            return Boolean.parseBoolean(s);
        } else if (to == String[].class) {
            return s.isEmpty() ? new String[0] : s.split("\\s*,\\s*");
        } else if (to.isEnum()) {
            return Enum.valueOf((Class<? extends Enum>) to, s);
        }
        return s;
    }
}
