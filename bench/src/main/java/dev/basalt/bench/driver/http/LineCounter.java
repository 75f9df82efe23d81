package dev.basalt.bench.driver.http;

import java.io.IOException;
import java.io.InputStream;

/**
 * Counts the results of line-based formats by reading every byte: statements of an N-Triples body
 * (one per line that is neither blank nor a comment, each ending in {@code .}), solutions of a SPARQL
 * TSV body (one per line after the header of variables, each line ending in a line feed). A body cut
 * off inside a line is rejected. Stateless; any thread may call it, each with its own stream.
 */
final class LineCounter {

	private LineCounter() {
	}

	/** Statements of an N-Triples body. */
	static long statements(InputStream in) throws IOException {
		byte[] buf = new byte[16 * 1024];
		long count = 0;
		long line = 1;
		int first = -1; // first non-blank byte of the current line, -1 while blank
		int last = -1; // last non-blank byte of the current line
		for (int n = in.read(buf); n >= 0; n = in.read(buf)) {
			for (int i = 0; i < n; i++) {
				int b = buf[i];
				if (b == '\n' || b == '\r') {
					if (first >= 0 && first != '#') {
						requireDot(last, line);
						count++;
					}
					if (b == '\n') {
						line++;
					}
					first = -1;
					last = -1;
				} else if (b != ' ' && b != '\t') {
					if (first < 0) {
						first = b;
					}
					last = b;
				}
			}
		}
		if (first >= 0 && first != '#') {
			requireDot(last, line);
			count++;
		}
		return count;
	}

	private static void requireDot(int last, long line) throws IOException {
		if (last != '.') {
			throw new IOException("malformed N-Triples: line " + line + " does not end with '.'");
		}
	}

	/** Solutions of a SPARQL TSV body: the lines after the header. */
	static long solutions(InputStream in) throws IOException {
		byte[] buf = new byte[16 * 1024];
		long lines = 0;
		int lastByte = -1;
		boolean header = true;
		for (int n = in.read(buf); n >= 0; n = in.read(buf)) {
			for (int i = 0; i < n; i++) {
				int b = buf[i];
				if (header && lastByte == -1 && b != '?' && b != '\n') {
					throw new IOException("malformed SPARQL TSV: the header does not start with a variable");
				}
				if (b == '\n') {
					lines++;
					header = false;
				}
				lastByte = b;
			}
		}
		if (lastByte == -1) {
			throw new IOException("malformed SPARQL TSV: empty body, no header");
		}
		if (lastByte != '\n') {
			throw new IOException("malformed SPARQL TSV: the body ends inside line " + (lines + 1));
		}
		return lines - 1;
	}
}
