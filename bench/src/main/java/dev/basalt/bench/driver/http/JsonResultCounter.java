package dev.basalt.bench.driver.http;

import java.io.IOException;
import java.io.InputStream;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;

/**
 * Counts the solutions (or the boolean) of a SPARQL 1.1 Query Results JSON body with a streaming
 * parse: every string of every binding is decoded, the body must be one complete JSON object, and it
 * must hold {@code results.bindings} or {@code boolean}. Thread-safe (no state but the shared factory).
 */
final class JsonResultCounter {

	private static final JsonFactory FACTORY = new JsonFactory();

	private JsonResultCounter() {
	}

	static long count(InputStream body) throws IOException {
		try (JsonParser p = FACTORY.createParser(body)) {
			expect(p, p.nextToken(), JsonToken.START_OBJECT, "the body");
			long solutions = -1;
			long chars = 0;
			while (p.nextToken() == JsonToken.FIELD_NAME) {
				String field = p.currentName();
				JsonToken value = p.nextToken();
				if (field.equals("results")) {
					expect(p, value, JsonToken.START_OBJECT, "results");
					while (p.nextToken() == JsonToken.FIELD_NAME) {
						JsonToken inner = p.nextToken();
						if (p.currentName().equals("bindings")) {
							expect(p, inner, JsonToken.START_ARRAY, "results.bindings");
							solutions = 0;
							for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
								expect(p, t, JsonToken.START_OBJECT, "a solution");
								chars += readAll(p);
								solutions++;
							}
						} else {
							p.skipChildren();
						}
					}
				} else if (field.equals("boolean")) {
					if (value != JsonToken.VALUE_TRUE && value != JsonToken.VALUE_FALSE) {
						throw malformed(p, "boolean is not true or false");
					}
					solutions = value == JsonToken.VALUE_TRUE ? 1 : 0;
				} else {
					p.skipChildren();
				}
			}
			expect(p, p.currentToken(), JsonToken.END_OBJECT, "the end of the body");
			if (p.nextToken() != null) {
				throw malformed(p, "more after the end of the result object");
			}
			if (solutions < 0) {
				throw malformed(p, "neither results.bindings nor boolean");
			}
			ReadCounter.add(chars);
			return solutions;
		} catch (JsonProcessingException e) {
			throw new IOException("malformed SPARQL JSON results: " + e.getOriginalMessage() + " (at "
					+ e.getLocation() + ")", e);
		}
	}

	/** Reads the object or array the parser is at to its end, decoding every string; returns their lengths. */
	private static long readAll(JsonParser p) throws IOException {
		long chars = 0;
		int depth = 1;
		while (depth > 0) {
			JsonToken t = p.nextToken();
			if (t == null) {
				throw malformed(p, "the body ends inside a solution");
			}
			switch (t) {
			case START_OBJECT, START_ARRAY -> depth++;
			case END_OBJECT, END_ARRAY -> depth--;
			case VALUE_STRING, FIELD_NAME -> chars += p.getTextLength();
			default -> {
			}
			}
		}
		return chars;
	}

	private static void expect(JsonParser p, JsonToken actual, JsonToken expected, String what) throws IOException {
		if (actual != expected) {
			throw malformed(p, what + " is " + actual + " where " + expected + " belongs");
		}
	}

	private static IOException malformed(JsonParser p, String what) {
		return new IOException("malformed SPARQL JSON results: " + what + " (at " + p.currentLocation() + ")");
	}
}
