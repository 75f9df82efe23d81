package dev.basalt.sail.repository;

import java.io.IOException;
import java.io.InputStream;
import java.util.Set;

import org.eclipse.rdf4j.model.Resource;
import org.eclipse.rdf4j.rio.RDFFormat;
import org.eclipse.rdf4j.rio.RioSetting;

/**
 * A sail connection of a sail stacked on a Basalt store (a replicated store, say) that takes an
 * N-Triples or N-Quads upload whole, as bytes, instead of statement by statement from RDF4J's
 * parser: a {@link BasaltRepository} connection's {@code add(InputStream, ...)} hands it the stream
 * when its parser settings allow the bulk loader (as for a Basalt store itself, {@link BulkAdds}).
 * The upload belongs to the connection's open transaction (begun by the caller when none is).
 *
 * <p>Thread rules: called on the thread that uses the connection, under the connection's own rules.
 */
public interface UploadTarget {
    /**
     * Takes the upload {@code data} (already decompressed; it supports mark and reset) into the
     * open transaction, or declines it.
     *
     * @param context        the graph of every statement, or null to keep each statement's own
     * @param nonFatalErrors parser checks that only warn (the caller's {@code ParserConfig})
     * @return false when declined, with {@code data} reset to where it was: the caller then parses it
     *         with RDF4J's parser and adds the statements one by one
     */
    boolean addUpload(InputStream data, RDFFormat format, String baseUri, Resource context,
            Set<RioSetting<?>> nonFatalErrors) throws IOException;
}
