package io.jstark.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.io.JsonEOFException;
import io.jstark.protocol.Statement;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The expected statement as a JSON file ({@code prove --write-statement} writes it, {@code verify
 * --expect} reads it). Public inputs are decimal strings (unsigned 64-bit field elements do not fit a JSON
 * number exactly); a height is {@code "logHeight": k} or a range {@code "logHeight": {"min": a, "max": b}}:
 *
 * <pre>
 * {"format": "jstark-statement-1", "tables": [
 *   {"name": "cpu", "definition": "cpu", "logHeight": 10, "publicInputs": ["7", "0"]},
 *   {"name": "range16", "definition": "range16", "logHeight": {"min": 16, "max": 16}, "publicInputs": []}]}
 * </pre>
 *
 * Read and written with Jackson's streaming parser and generator: a verifier's start-up should not pay
 * for an object mapper to read a few lines.
 */
final class StatementFile {
    static final String FORMAT = "jstark-statement-1";
    /** A statement file larger than this is not one (thousands of tables fit in far less). */
    private static final long MAX_BYTES = 16 << 20;
    /** Strict: a field twice in one object is an error, not "the last one wins". */
    private static final JsonFactory JSON = JsonFactory.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .disable(StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION)
            .build();

    private static final List<String> TOP_FIELDS = List.of("format", "tables");
    private static final List<String> TABLE_FIELDS = List.of("name", "definition", "logHeight", "publicInputs");
    private static final List<String> RANGE_FIELDS = List.of("min", "max");
    /** An unsigned 64-bit decimal as the file writes it: ASCII digits only (no sign, no other script's digits). */
    private static final java.util.regex.Pattern DECIMAL = java.util.regex.Pattern.compile("[0-9]{1,20}");

    private StatementFile() {}

    static void write(Statement statement, Path file) throws IOException {
        StringWriter text = new StringWriter();
        try (JsonGenerator out = JSON.createGenerator(text).useDefaultPrettyPrinter()) {
            out.writeStartObject();
            out.writeStringField("format", FORMAT);
            out.writeArrayFieldStart("tables");
            for (Statement.Table t : statement.tables()) {
                out.writeStartObject();
                out.writeStringField("name", t.name());
                out.writeStringField("definition", t.definition());
                if (t.minLogHeight() == t.maxLogHeight()) {
                    out.writeNumberField("logHeight", t.minLogHeight());
                } else {
                    out.writeObjectFieldStart("logHeight");
                    out.writeNumberField("min", t.minLogHeight());
                    out.writeNumberField("max", t.maxLogHeight());
                    out.writeEndObject();
                }
                out.writeArrayFieldStart("publicInputs");
                for (long v : t.publicInputs()) {
                    out.writeString(Long.toUnsignedString(v));
                }
                out.writeEndArray();
                out.writeEndObject();
            }
            out.writeEndArray();
            out.writeEndObject();
        }
        Files.writeString(file, text + System.lineSeparator());
    }

    /**
     * Reads a statement file, which must mean one thing: a field given twice, a field it does not know
     * (a misspelt or a hoped-for "minSecurity" would otherwise be silently ignored) or anything after the
     * one JSON object is refused, naming it.
     *
     * @throws Main.InputException naming the file and what in it is wrong
     */
    static Statement read(Path file) throws IOException {
        ProofFiles.requireFile(file, "a statement file");
        if (Files.size(file) > MAX_BYTES) {
            throw new Main.InputException(file + " holds " + Files.size(file) + " bytes: not a statement file");
        }
        Object root;
        try (JsonParser in = JSON.createParser(file.toFile())) {
            in.nextToken();
            root = value(in);
            if (in.nextToken() != null) {
                throw new Main.InputException(file + ": content after the statement's JSON object (" + where(in) + ")");
            }
        } catch (JsonProcessingException e) {
            // Jackson's own text of a truncated file quotes a location of its own ("[Source: REDACTED ...]")
            String reason =
                    e instanceof JsonEOFException ? "it ends before the JSON is complete" : e.getOriginalMessage();
            throw new Main.InputException(file + " is not JSON: " + reason + " (" + where(e.getLocation()) + ")");
        }
        if (!(root instanceof Map<?, ?> object) || !FORMAT.equals(object.get("format"))) {
            throw new Main.InputException(file + " is not a statement file: it lacks \"format\": \"" + FORMAT + "\"");
        }
        requireOnly(object, TOP_FIELDS, file.toString());
        if (!(object.get("tables") instanceof List<?> tables) || tables.isEmpty()) {
            throw new Main.InputException(file + ": \"tables\" must be a non-empty array");
        }
        List<Statement.Table> out = new ArrayList<>();
        for (int i = 0; i < tables.size(); i++) {
            if (!(tables.get(i) instanceof Map<?, ?> table)) {
                throw new Main.InputException(file + ": table " + i + " must be an object");
            }
            out.add(table(file, i, table));
        }
        return new Statement(out);
    }

    private static void requireOnly(Map<?, ?> object, List<String> known, String where) {
        for (Object field : object.keySet()) {
            if (!known.contains(field)) {
                throw new Main.InputException(
                        where + ": unknown field \"" + field + "\" (known here: " + String.join(", ", known) + ")");
            }
        }
    }

    private static String where(JsonParser in) {
        return where(in.currentLocation());
    }

    private static String where(JsonLocation at) {
        return at == null ? "position unknown" : "line " + at.getLineNr() + ", column " + at.getColumnNr();
    }

    /**
     * The JSON value at the parser's current token: a map, a list, a string, a {@link Long} for a number
     * that fits an int, or {@link Other} for anything else (a scalar: objects and arrays are the first two).
     */
    private static Object value(JsonParser in) throws IOException {
        JsonToken token = in.currentToken();
        if (token == JsonToken.START_OBJECT) {
            Map<String, Object> object = new LinkedHashMap<>();
            while (in.nextToken() == JsonToken.FIELD_NAME) {
                String field = in.currentName();
                in.nextToken();
                object.put(field, value(in));
            }
            return object;
        }
        if (token == JsonToken.START_ARRAY) {
            List<Object> list = new ArrayList<>();
            while (in.nextToken() != JsonToken.END_ARRAY) {
                list.add(value(in));
            }
            return list;
        }
        if (token == JsonToken.VALUE_STRING) {
            return in.getText();
        }
        if (token == JsonToken.VALUE_NUMBER_INT && in.getNumberType() == JsonParser.NumberType.INT) {
            return (long) in.getIntValue();
        }
        return new Other(token);
    }

    /** A JSON value no field of a statement file takes (true, null, 1.5, a number beyond an int). */
    private record Other(JsonToken token) {
        @Override
        public String toString() {
            return switch (token) {
                case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> "a number";
                case VALUE_TRUE, VALUE_FALSE -> "a boolean";
                default -> "null";
            };
        }
    }

    private static Statement.Table table(Path file, int index, Map<?, ?> t) {
        String where = file + ": table " + index;
        requireOnly(t, TABLE_FIELDS, where);
        String name = text(t, "name", where);
        String definition = text(t, "definition", where);
        Object height = t.get("logHeight");
        int min;
        int max;
        if (height instanceof Long h) {
            min = h.intValue();
            max = min;
        } else if (height instanceof Map<?, ?> range
                && range.get("min") instanceof Long a
                && range.get("max") instanceof Long b) {
            requireOnly(range, RANGE_FIELDS, where + ": \"logHeight\"");
            min = a.intValue();
            max = b.intValue();
        } else {
            throw new Main.InputException(where + ": \"logHeight\" must be an integer or {\"min\": a, \"max\": b}");
        }
        if (!(t.get("publicInputs") instanceof List<?> inputs)) {
            throw new Main.InputException(where + ": \"publicInputs\" must be an array of decimal strings");
        }
        long[] values = new long[inputs.size()];
        for (int k = 0; k < values.length; k++) {
            values[k] = publicInput(inputs.get(k), where + ": public input " + k);
        }
        try {
            return new Statement.Table(name, definition, min, max, values);
        } catch (IllegalArgumentException e) {
            throw new Main.InputException(where + ": " + e.getMessage());
        }
    }

    private static long publicInput(Object value, String where) {
        if (!(value instanceof String text)) {
            throw new Main.InputException(
                    where + " must be a decimal string such as \"58008\" (a field element does not fit a JSON "
                            + "number exactly), got " + (value instanceof Long n ? "the number " + n : value));
        }
        try {
            if (DECIMAL.matcher(text).matches()) {
                return Long.parseUnsignedLong(text);
            }
        } catch (NumberFormatException tooLarge) {
            // beyond 2^64 - 1: refused below with the others
        }
        throw new Main.InputException(where + " '" + text + "' is not an unsigned 64-bit decimal (ASCII digits only)");
    }

    private static String text(Map<?, ?> t, String field, String where) {
        if (!(t.get(field) instanceof String v) || v.isEmpty()) {
            throw new Main.InputException(where + ": \"" + field + "\" must be a non-empty string");
        }
        return v;
    }
}
