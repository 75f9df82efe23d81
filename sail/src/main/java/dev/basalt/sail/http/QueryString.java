package dev.basalt.sail.http;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Decodes a URL's query string ({@code application/x-www-form-urlencoded}: {@code +} for space, {@code %XX}
 * bytes of UTF-8) into its parameters, for the common case only: a query string with anything unusual (a
 * character outside printable ASCII, a malformed escape, bytes that are not UTF-8) gets null, and the caller
 * asks the servlet container, whose decoding (and errors) then apply as always. A GET query's string is
 * about a kilobyte of escapes; Jetty decodes it a byte at a time through a UTF-8 state machine, which was a
 * tenth of a fast-path request's CPU (docs/benchmarks-server.md). Thread-safe: stateless.
 */
final class QueryString {
    private QueryString() {
    }

    /** Name to values, in order of appearance; null if the container is to decode {@code query}. */
    static Map<String, List<String>> parse(String query) {
        Map<String, List<String>> parameters = new LinkedHashMap<>();
        if (query == null) {
            return parameters;
        }
        byte[] scratch = new byte[query.length()];
        int start = 0;
        while (start <= query.length()) {
            int end = query.indexOf('&', start);
            if (end < 0) {
                end = query.length();
            }
            if (end > start) {
                int equals = query.indexOf('=', start);
                int nameEnd = equals < 0 || equals > end ? end : equals;
                String name = decode(query, start, nameEnd, scratch);
                String value = nameEnd == end ? "" : decode(query, nameEnd + 1, end, scratch);
                if (name == null || value == null) {
                    return null;
                }
                parameters.computeIfAbsent(name, k -> new ArrayList<>(1)).add(value);
            }
            start = end + 1;
        }
        return parameters;
    }

    private static String decode(String s, int from, int to, byte[] scratch) {
        int n = 0;
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (c == '%') {
                if (i + 2 >= to) {
                    return null;
                }
                int high = Character.digit(s.charAt(i + 1), 16);
                int low = Character.digit(s.charAt(i + 2), 16);
                if (high < 0 || low < 0) {
                    return null;
                }
                scratch[n++] = (byte) (high << 4 | low);
                i += 2;
            } else if (c == '+') {
                scratch[n++] = ' ';
            } else if (c > 0x20 && c < 0x7F) {
                scratch[n++] = (byte) c;
            } else {
                return null;
            }
        }
        try {
            CharBuffer chars = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(scratch, 0, n));
            return chars.toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }
}
