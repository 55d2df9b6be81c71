package io.jstark.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
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
    private static final JsonFactory JSON = new JsonFactory();

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
        ProveOutputs.createParent(file);
        Files.writeString(file, text + System.lineSeparator());
    }

    /** @throws Main.InputException naming the file and what in it is wrong */
    static Statement read(Path file) throws IOException {
        ProofFiles.requireFile(file, "a statement file");
        if (Files.size(file) > MAX_BYTES) {
            throw new Main.InputException(file + " holds " + Files.size(file) + " bytes: not a statement file");
        }
        Object root;
        try (JsonParser in = JSON.createParser(file.toFile())) {
            in.nextToken();
            root = value(in);
        } catch (JsonProcessingException e) {
            throw new Main.InputException(file + " is not JSON: " + e.getOriginalMessage());
        }
        if (!(root instanceof Map<?, ?> object) || !FORMAT.equals(object.get("format"))) {
            throw new Main.InputException(file + " is not a statement file: it lacks \"format\": \"" + FORMAT + "\"");
        }
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

    /** The JSON value at the parser's current token: a map, a list, a string, a long, or null for others. */
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
        in.skipChildren();
        return null;
    }

    private static Statement.Table table(Path file, int index, Map<?, ?> t) {
        String where = file + ": table " + index;
        String name = text(t, "name", where);
        String definition = text(t, "definition", where);
        Object height = t.get("logHeight");
        int min;
        int max;
        if (height instanceof Long h) {
            min = h.intValue();
            max = min;
        } else if (height instanceof Map<?, ?> range && range.get("min") instanceof Long a && range.get("max") instanceof Long b) {
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
            try {
                values[k] = Long.parseUnsignedLong(String.valueOf(inputs.get(k)));
            } catch (NumberFormatException e) {
                throw new Main.InputException(where + ": public input " + k + " '" + inputs.get(k) + "' is not an unsigned 64-bit decimal");
            }
        }
        try {
            return new Statement.Table(name, definition, min, max, values);
        } catch (IllegalArgumentException e) {
            throw new Main.InputException(where + ": " + e.getMessage());
        }
    }

    private static String text(Map<?, ?> t, String field, String where) {
        if (!(t.get(field) instanceof String v) || v.isEmpty()) {
            throw new Main.InputException(where + ": \"" + field + "\" must be a non-empty string");
        }
        return v;
    }
}
