package io.jstark.instrument;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Narrows span fields and timeline metadata to the values JSON carries without loss, so that what is read
 * back equals what was recorded: scalars become {@link String}, {@link Long}, {@link Double}, {@link Boolean}
 * or null; metadata may also nest maps (string keys) and lists of those.
 */
final class FieldValues {
    private FieldValues() {}

    static Object normalizeScalar(Object value) {
        return switch (value) {
            case null -> null;
            case String s -> s;
            case Long l -> l;
            case Integer i -> (long) i;
            case Short s -> (long) s;
            case Byte b -> (long) b;
            case Boolean b -> b;
            case Double d -> Double.isFinite(d) ? d : d.toString();
            case Float f -> Float.isFinite(f) ? (double) f : f.toString();
            case BigInteger big -> big.bitLength() < Long.SIZE ? (Object) big.longValue() : big.toString();
            case AtomicLong a -> a.get();
            case AtomicInteger a -> (long) a.get();
            default -> value.toString();
        };
    }

    /** Normalizes a metadata value, keeping maps and lists (arrays become lists). */
    static Object normalizeNested(Object value) {
        return switch (value) {
            case Map<?, ?> map -> {
                Map<String, Object> out = new LinkedHashMap<>();
                map.forEach((k, v) -> out.put(String.valueOf(k), normalizeNested(v)));
                yield Collections.unmodifiableMap(out);
            }
            case Iterable<?> items -> {
                List<Object> out = new ArrayList<>();
                items.forEach(v -> out.add(normalizeNested(v)));
                yield Collections.unmodifiableList(out);
            }
            case Object[] items -> normalizeNested(java.util.Arrays.asList(items));
            case null, default -> normalizeScalar(value);
        };
    }

    static Map<String, Object> normalizeAll(Map<String, ?> fields) {
        if (fields == null || fields.isEmpty()) {
            return Map.of();
        }
        Map<String, Object> out = new LinkedHashMap<>();
        fields.forEach((k, v) -> out.put(k, normalizeScalar(v)));
        return Collections.unmodifiableMap(out);
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> normalizeMetadata(Map<String, ?> metadata) {
        return metadata == null ? Map.of() : (Map<String, Object>) normalizeNested(metadata);
    }

    /** Turns {@code key1, value1, key2, value2...} into a map, in the given order. */
    static void putKeyValues(String label, Object[] keyValues, Map<String, Object> into) {
        if (keyValues.length % 2 != 0) {
            throw new IllegalArgumentException(
                    "span '" + label + "': fields must be key/value pairs, got " + keyValues.length + " arguments");
        }
        for (int i = 0; i < keyValues.length; i += 2) {
            into.put(String.valueOf(keyValues[i]), normalizeScalar(keyValues[i + 1]));
        }
    }
}
