package net.beaconcontroller.config.internal;

import java.io.IOException;
import java.util.Dictionary;

import org.osgi.framework.InvalidSyntaxException;
import org.osgi.service.cm.Configuration;
import org.osgi.service.cm.ConfigurationAdmin;

/** {@link ConfigSink} over Configuration Admin. */
final class CmSink implements ConfigSink {
    /** Any bundle may use the configuration: the PID, not the location, says whose it is. */
    private static final String ANY_LOCATION = "?";

    private final ConfigurationAdmin cm;

    CmSink(ConfigurationAdmin cm) {
        this.cm = cm;
    }

    @Override
    public void apply(String pid, Dictionary<String, Object> properties) throws IOException {
        cm.getConfiguration(pid, ANY_LOCATION).updateIfDifferent(properties);
    }

    @Override
    public void remove(String pid) throws IOException {
        Configuration[] existing;
        try {
            existing = cm.listConfigurations("(" + org.osgi.framework.Constants.SERVICE_PID + "=" + pid + ")");
        } catch (InvalidSyntaxException e) {
            throw new IOException("not a usable PID: " + pid, e);
        }
        if (existing != null) {
            for (var c : existing) {
                c.delete();
            }
        }
    }
}
