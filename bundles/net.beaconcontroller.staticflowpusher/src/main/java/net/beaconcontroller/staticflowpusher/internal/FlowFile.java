package net.beaconcontroller.staticflowpusher.internal;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

import net.beaconcontroller.openflow.OFMatch;
import net.beaconcontroller.openflow.action.OFActions;
import net.beaconcontroller.staticflowpusher.StaticFlow;

/**
 * The static flows on disk: one line per flow, tab-separated, match and actions in ovs-ofctl syntax (readable, and
 * {@code OFMatch}/{@code OFActions} read back exactly what they print). Written whole to a temporary file that then
 * replaces the old one, so a crash leaves either the old flows or the new ones.
 */
final class FlowFile {
    private static final String HEADER = "# Beacon static flows (written by Beacon; one per line): name, dpid,"
            + " priority, cookie, idle timeout, hard timeout, active, match, actions";

    private final Path path;

    FlowFile(Path path) {
        this.path = path;
    }

    Path path() {
        return path;
    }

    /** @throws IOException naming the line that does not parse */
    List<StaticFlow> read() throws IOException {
        if (!Files.exists(path)) {
            return List.of();
        }
        var flows = new ArrayList<StaticFlow>();
        int n = 0;
        for (var line : Files.readAllLines(path, StandardCharsets.UTF_8)) {
            n++;
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            var f = line.split("\t", -1);
            try {
                if (f.length != 9) {
                    throw new IllegalArgumentException("expected 9 tab-separated fields, found " + f.length);
                }
                flows.add(new StaticFlow(f[0], Long.parseUnsignedLong(f[1], 16), OFMatch.parse(f[7]),
                        OFActions.parse(f[8]), Integer.parseInt(f[2]), Long.parseUnsignedLong(f[3], 16),
                        Integer.parseInt(f[4]), Integer.parseInt(f[5]), Boolean.parseBoolean(f[6])));
            } catch (IllegalArgumentException e) {
                throw new IOException(path + " line " + n + ": " + e.getMessage(), e);
            }
        }
        return flows;
    }

    void write(Collection<StaticFlow> flows) throws IOException {
        var sb = new StringBuilder(HEADER).append('\n');
        for (var f : flows) {
            sb.append(f.name()).append('\t').append(Long.toHexString(f.dpid())).append('\t').append(f.priority())
                    .append('\t').append(Long.toHexString(f.cookie())).append('\t').append(f.idleTimeout())
                    .append('\t').append(f.hardTimeout()).append('\t').append(f.active()).append('\t')
                    .append(f.match()).append('\t').append(OFActions.toString(f.actions())).append('\n');
        }
        var dir = path.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        var tmp = Files.createTempFile(dir, ".staticflows", ".tmp");
        try {
            Files.writeString(tmp, sb, StandardCharsets.UTF_8);
            try {
                Files.move(tmp, path, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, path, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
    }
}
