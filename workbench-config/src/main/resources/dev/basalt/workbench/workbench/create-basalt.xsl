<?xml version="1.0" encoding="UTF-8"?>
<!--
  The Workbench's "New repository" form for a Basalt store. Every input's name is a variable label
  of WEB-INF/classes/org/eclipse/rdf4j/repository/config/basalt.ttl; the Workbench fills the
  template with the submitted values and sends the configuration to RDF4J Server.
-->
<xsl:stylesheet version="1.0"
	xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
	xmlns:sparql="http://www.w3.org/2005/sparql-results#" xmlns="http://www.w3.org/1999/xhtml">

	<xsl:include href="../locale/messages.xsl" />

	<xsl:variable name="title">
		<xsl:value-of select="$repository-create.title" />
	</xsl:variable>

	<xsl:include href="template.xsl" />

	<xsl:template match="sparql:sparql">
		<form action="create" method="post">
			<table class="dataentry">
				<tbody>
					<tr>
						<th><xsl:value-of select="$repository-type.label" /></th>
						<td>
							<select id="type" name="type">
								<option value="basalt">Basalt Store</option>
							</select>
						</td>
						<td></td>
					</tr>
					<tr>
						<th><xsl:value-of select="$repository-id.label" /></th>
						<td><input type="text" id="id" name="Repository ID" size="16" value="basalt" /></td>
						<td></td>
					</tr>
					<tr>
						<th><xsl:value-of select="$repository-title.label" /></th>
						<td><input type="text" id="title" name="Repository title" size="48" value="Basalt store" /></td>
						<td></td>
					</tr>
					<tr>
						<th>Journal mode</th>
						<td>
							<select id="journalMode" name="Journal mode">
								<option selected="selected" value="RW">RW (recycles space)</option>
								<option value="WORM">WORM (keeps every commit)</option>
							</select>
						</td>
						<td>Fixed when the store is created.</td>
					</tr>
					<tr>
						<th>History retention</th>
						<td><input type="text" id="historyRetention" name="History retention" size="16" value="PT0S" /></td>
						<td>ISO-8601 duration a superseded commit stays readable in RW mode, e.g. PT1H, P7D.</td>
					</tr>
					<tr>
						<th>Statement indexes</th>
						<td><input type="text" id="statementIndexes" name="Statement indexes" size="24" value="spoc,posc,ospc,cspo" /></td>
						<td>Index orders over s, p, o, c; fixed when the store is created.</td>
					</tr>
					<tr>
						<th>Durable commits</th>
						<td>
							<select id="durable" name="Durable commits">
								<option selected="selected" value="true">true (fsync at every commit)</option>
								<option value="false">false</option>
							</select>
						</td>
						<td></td>
					</tr>
					<tr>
						<th>Query iteration cache size</th>
						<td><input type="text" id="iterationCacheSyncThreshold" name="Query Iteration Cache size" size="16" value="10000" /></td>
						<td></td>
					</tr>
					<tr>
						<th>Leaf page entries</th>
						<td><input type="text" id="leafMaxEntries" name="Leaf page entries" size="16" value="" /></td>
						<td>Most entries of a B+tree leaf page; empty: as many as a 4 KiB page holds (statement indexes, at most 2,048).</td>
					</tr>
					<tr>
						<th>Internal page children</th>
						<td><input type="text" id="internalMaxEntries" name="Internal page children" size="16" value="" /></td>
						<td>Most children of a B+tree internal page (at least 3); empty: the B+tree's default.</td>
					</tr>
					<tr>
						<th>Page cache bytes</th>
						<td><input type="text" id="pageCacheBytes" name="Page cache bytes" size="16" value="" /></td>
						<td>Byte budget of the decoded-page cache; empty: 1/8 of the max heap, at least 64 MiB.</td>
					</tr>
					<tr>
						<th>Value cache size</th>
						<td><input type="text" id="valueCacheSize" name="Value cache size" size="16" value="" /></td>
						<td>Entries of the lexicon's id-to-value cache; empty: sized from the max heap.</td>
					</tr>
					<tr>
						<th>Derived value cache bytes</th>
						<td><input type="text" id="derivedCacheBytes" name="Derived value cache bytes" size="16" value="" /></td>
						<td>Heap the shared values of per-term expressions (SUM, AVG arguments) may take; empty: 1/16 of the max heap, at least 64 MiB.</td>
					</tr>
					<tr>
						<th>Value id cache size</th>
						<td><input type="text" id="valueIdCacheSize" name="Value id cache size" size="16" value="" /></td>
						<td>Entries of the lexicon's value-to-id cache; empty: 100000.</td>
					</tr>
					<tr>
						<th>Spill threshold</th>
						<td><input type="text" id="spillThreshold" name="Spill threshold" size="16" value="100000" /></td>
						<td>Statements a transaction keeps in memory before its pending changes spill to disk.</td>
					</tr>
					<tr>
						<th>Large transaction threshold</th>
						<td><input type="text" id="largeTransactionThreshold" name="Large transaction threshold" size="16" value="100000" /></td>
						<td>Additions at which an isolated transaction writes through into the store (0 = never).</td>
					</tr>
					<tr>
						<th>Large transaction idle seconds</th>
						<td><input type="text" id="largeTransactionIdleSeconds" name="Large transaction idle seconds" size="16" value="30" /></td>
						<td>Seconds such a transaction may hold the writer idle while another connection waits to commit.</td>
					</tr>
					<tr>
						<th>Sort rows</th>
						<td><input type="text" id="sortRows" name="Sort rows" size="16" value="0" /></td>
						<td>Rows ORDER BY buffers before it spills sorted runs to disk (0 = default, 250000).</td>
					</tr>
					<tr>
						<th>Distinct rows</th>
						<td><input type="text" id="distinctRows" name="Distinct rows" size="16" value="0" /></td>
						<td>Keys DISTINCT holds in memory before it partitions to disk (0 = default, 500000).</td>
					</tr>
					<tr>
						<th>Group rows</th>
						<td><input type="text" id="groupRows" name="Group rows" size="16" value="0" /></td>
						<td>Groups GROUP BY holds in memory before it partitions to disk (0 = default, 500000).</td>
					</tr>
					<tr>
						<th>Hash join rows</th>
						<td><input type="text" id="hashJoinRows" name="Hash join rows" size="16" value="0" /></td>
						<td>Rows of a hash join's build side before it spills to disk (0 = default, 4000000).</td>
					</tr>
					<tr>
						<th>Path nodes</th>
						<td><input type="text" id="pathNodes" name="Path nodes" size="16" value="0" /></td>
						<td>Ids one property path search may hold before the query fails (0 = default, 4000000).</td>
					</tr>
					<tr>
						<th>Spill directory</th>
						<td><input type="text" id="spillDirectory" name="Spill directory" size="16" value="" /></td>
						<td>Directory of query spill files (empty = default, java.io.tmpdir).</td>
					</tr>
					<tr>
						<th>Helper threads per query</th>
						<td><input type="text" id="helperThreads" name="Helper threads per query" size="16" value="-1" /></td>
						<td>Helper threads one query may use at once (0 = none, -1 = default: the JVM's pool).</td>
					</tr>
					<tr>
						<th>Query timeout seconds</th>
						<td><input type="text" id="queryTimeoutSeconds" name="Query timeout seconds" size="16" value="0" /></td>
						<td>Seconds after which a query is stopped (0 = no limit).</td>
					</tr>
					<tr>
						<th>Reader warn age</th>
						<td><input type="text" id="readerWarnAge" name="Reader warn age" size="16" value="PT10M" /></td>
						<td>ISO-8601 duration after which an open reader is logged as a warning.</td>
					</tr>
					<tr>
						<th>Maximum file bytes</th>
						<td><input type="text" id="maxFileBytes" name="Maximum file bytes" size="16" value="0" /></td>
						<td>Bytes the journal file may not grow past (0 = no limit).</td>
					</tr>
					<tr>
						<th>Compact at free percent</th>
						<td><input type="text" id="compactFreePercent" name="Compact at free percent" size="16" value="0" /></td>
						<td>Compact the store online when this share of its file is free (0 = never).</td>
					</tr>
					<tr>
						<th>Prewarm caches at open</th>
						<td>
							<select id="prewarm" name="Prewarm caches at open">
								<option selected="selected" value="true">true</option>
								<option value="false">false</option>
							</select>
						</td>
						<td>Opening the store reads its pages and terms into its caches before the first query.</td>
					</tr>
					<tr>
						<th>Batch execution</th>
						<td>
							<select id="batches" name="Batch execution">
								<option selected="selected" value="true">true</option>
								<option value="false">false</option>
							</select>
						</td>
						<td>A GROUP BY whose input operators all have a batch form reads it in batches of rows.</td>
					</tr>
					<tr>
						<th>Parallel joins</th>
						<td>
							<select id="parallel" name="Parallel joins">
								<option selected="selected" value="auto">auto (chains over 128 estimated rows)</option>
								<option value="force">force (every chain that can)</option>
								<option value="off">off</option>
							</select>
						</td>
						<td>When a join chain runs in chunks on helper threads.</td>
					</tr>
					<tr>
						<th>Native evaluation</th>
						<td>
							<select id="nativeEvaluation" name="Native evaluation">
								<option selected="selected" value="true">true (Basalt's engine where it can)</option>
								<option value="false">false (RDF4J's evaluator only)</option>
							</select>
						</td>
						<td></td>
					</tr>
					<tr>
						<th>Inference</th>
						<td>
							<select id="inference" name="Inference">
								<option selected="selected" value="none">none</option>
								<option value="rdfs">rdfs</option>
								<option value="owl-rl">owl-rl (RDFS and the OWL 2 RL rules in docs/sail.md)</option>
							</select>
						</td>
						<td>Rules whose conclusions the store keeps materialized as inferred statements.</td>
					</tr>
					<tr>
						<th>Query shapes</th>
						<td><input type="text" id="queryShapes" name="Query shapes" size="16" value="1000" /></td>
						<td>SPARQL query shapes (queries up to their constants) kept parsed; 0 parses every query.</td>
					</tr>
					<tr>
						<th>Keep shape plans</th>
						<td>
							<select id="shapePlans" name="Keep shape plans">
								<option selected="selected" value="true">true</option>
								<option value="false">false</option>
							</select>
						</td>
						<td>Keep compiled plans with the query shapes; false compiles every query.</td>
					</tr>
					<tr>
						<td></td>
						<td>
							<input type="button" value="{$cancel.label}" style="float:right"
								data-href="repositories"
								onclick="document.location.href=this.getAttribute('data-href')" />
							<input id="create" type="button" value="{$create.label}"
								onclick="checkOverwrite()" />
						</td>
					</tr>
				</tbody>
			</table>
		</form>
		<script src="../../scripts/create.js" type="text/javascript">
		</script>
	</xsl:template>

</xsl:stylesheet>
