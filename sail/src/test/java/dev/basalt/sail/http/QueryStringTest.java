package dev.basalt.sail.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.Test;

/**
 * The fast path's query-string decoding gives what a form encoder put in (random names and values with
 * markup, spaces, {@code + & = %}, non-ASCII and characters outside the BMP; repeated names; empty values and
 * segments), and null, so that the container decodes, for anything it does not handle.
 */
class QueryStringTest {
    private static final long SEED = Long.getLong("basalt.seed", 18L);
    private static final String CHARS = "aZ09 +&=%?#/<>\"'{}\n\t\u00e9\u4e2d\ud83d\ude00.-_~*";

    @Test
    void decodesWhatAFormEncoderWrote() {
        System.out.println("QueryStringTest seed " + SEED + " (-Dbasalt.seed=N to vary)");
        Random random = new Random(SEED);
        for (int round = 0; round < 2000; round++) {
            Map<String, List<String>> expected = new LinkedHashMap<>();
            StringBuilder query = new StringBuilder();
            int n = random.nextInt(5);
            for (int i = 0; i < n; i++) {
                String name = i > 0 && random.nextInt(4) == 0 ? expected.keySet().iterator().next() : "p" + text(random);
                String value = text(random);
                expected.computeIfAbsent(name, k -> new ArrayList<>()).add(value);
                query.append(query.length() > 0 ? "&" : "").append(random.nextInt(8) == 0 ? "&" : "")
                        .append(URLEncoder.encode(name, StandardCharsets.UTF_8)).append('=')
                        .append(URLEncoder.encode(value, StandardCharsets.UTF_8));
            }
            assertEquals(expected, SparqlFastPath.Request.parseQueryString(query.toString()), query.toString());
        }
    }

    @Test
    void nameWithoutValueIsEmpty() {
        assertEquals(Map.of("infer", List.of("")), SparqlFastPath.Request.parseQueryString("infer"));
        assertEquals(Map.of(), SparqlFastPath.Request.parseQueryString(null));
    }

    @Test
    void leavesTheUnusualToTheContainer() {
        assertNull(SparqlFastPath.Request.parseQueryString("query=%"));
        assertNull(SparqlFastPath.Request.parseQueryString("query=%4"));
        assertNull(SparqlFastPath.Request.parseQueryString("query=%zz"));
        assertNull(SparqlFastPath.Request.parseQueryString("query=%C3%28"), "bytes that are not UTF-8");
        assertNull(SparqlFastPath.Request.parseQueryString("query=%ED%A0%80"), "an encoded surrogate");
        assertNull(SparqlFastPath.Request.parseQueryString("query=\u00e9"), "a raw non-ASCII character");
        assertNull(SparqlFastPath.Request.parseQueryString("query=a b"), "a raw space");
        assertNull(SparqlFastPath.Request.parseQueryString("query=%\uFF10A"), "a digit outside ASCII in an escape");
        assertNull(SparqlFastPath.Request.parseQueryString("query=%A\u0661"), "a digit outside ASCII in an escape");
    }

    @Test
    void readsEscapesInEitherCase() {
        assertEquals(Map.of("query", List.of("{\u00e9} x")), SparqlFastPath.Request.parseQueryString("query=%7b%C3%a9%7D+x"));
        assertEquals(Map.of("q", List.of("a", "b")), SparqlFastPath.Request.parseQueryString("q=a&&q=b&"));
    }

    private static String text(Random random) {
        StringBuilder s = new StringBuilder();
        int length = random.nextInt(10);
        for (int i = 0; i < length; i++) {
            s.append(CHARS.charAt(random.nextInt(CHARS.length())));
        }
        return s.toString().replaceAll("[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]", "");
    }
}
