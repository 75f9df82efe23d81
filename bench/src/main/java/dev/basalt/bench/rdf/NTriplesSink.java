package dev.basalt.bench.rdf;

import java.io.BufferedWriter;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPOutputStream;

/**
 * Streams triples to an N-Triples file (gzip-compressed when the name ends in {@code .gz}; the
 * name {@code -} is standard output) and
 * keeps the per-predicate and per-class counts the report describes the dataset with. Nothing but
 * those counts is held in memory.
 *
 * <p>Callers pass IRIs without angle brackets and literals already in N-Triples syntax (see
 * {@link #literal}, {@link #typed} and {@link #langString}); the generators only produce ASCII
 * letters, digits, spaces and punctuation that need no escaping beyond quotes and backslashes.
 *
 * <p>Not thread-safe: one generator thread writes a file through it and closes it.
 */
public final class NTriplesSink implements Closeable {

	public static final String RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type";

	private final Path file;
	private final Writer out;
	private final TripleCounts counts = new TripleCounts();

	public NTriplesSink(Path file) {
		this.file = file;
		if (file.toString().equals("-")) {
			// standard output, for a pipe into a loader (`basalt load --store DIR -`)
			out = new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), 1 << 16);
			return;
		}
		try {
			Path parent = file.toAbsolutePath().getParent();
			if (parent != null) {
				Files.createDirectories(parent);
			}
			OutputStream raw = Files.newOutputStream(file);
			if (file.getFileName().toString().endsWith(".gz")) {
				raw = new GZIPOutputStream(raw, 1 << 16);
			}
			out = new BufferedWriter(new OutputStreamWriter(raw, StandardCharsets.UTF_8), 1 << 16);
		} catch (IOException e) {
			throw new UncheckedIOException("Cannot create " + file + "; check the directory is writable", e);
		}
	}

	/** A triple whose object is an IRI. */
	public void iri(String subject, String predicate, String object) {
		counts.add(predicate, RDF_TYPE.equals(predicate) ? object : null);
		write('<' + subject + "> <" + predicate + "> <" + object + "> .\n");
	}

	/** A triple whose object is a literal already rendered by one of the static helpers. */
	public void lit(String subject, String predicate, String renderedLiteral) {
		counts.add(predicate, null);
		write('<' + subject + "> <" + predicate + "> " + renderedLiteral + " .\n");
	}

	public static String literal(String lexical) {
		return '"' + escape(lexical) + '"';
	}

	public static String typed(String lexical, String datatype) {
		return '"' + escape(lexical) + "\"^^<" + datatype + '>';
	}

	public static String langString(String lexical, String lang) {
		return '"' + escape(lexical) + "\"@" + lang;
	}

	private static String escape(String s) {
		if (s.indexOf('"') < 0 && s.indexOf('\\') < 0) {
			return s;
		}
		return s.replace("\\", "\\\\").replace("\"", "\\\"");
	}

	private void write(String line) {
		try {
			out.write(line);
		} catch (IOException e) {
			throw new UncheckedIOException("Cannot write to " + file + " (disk full?)", e);
		}
	}

	public TripleCounts counts() {
		return counts;
	}

	@Override
	public void close() {
		try {
			out.close();
		} catch (IOException e) {
			throw new UncheckedIOException("Cannot close " + file, e);
		}
	}
}
