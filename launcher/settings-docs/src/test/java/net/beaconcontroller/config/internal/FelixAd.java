package net.beaconcontroller.config.internal;

import org.apache.felix.metatype.AD;
import org.osgi.service.metatype.AttributeDefinition;

/** Felix's parsed {@code <AD>} as the metatype API's AttributeDefinition, which {@link AttributeSpec} reads. */
record FelixAd(AD ad) implements AttributeDefinition {
    @Override
    public String getName() {
        return ad.getName();
    }

    @Override
    public String getID() {
        return ad.getID();
    }

    @Override
    public String getDescription() {
        return ad.getDescription();
    }

    @Override
    public int getCardinality() {
        return ad.getCardinality();
    }

    @Override
    public int getType() {
        return ad.getType();
    }

    @Override
    public String[] getOptionValues() {
        return ad.getOptionValues();
    }

    @Override
    public String[] getOptionLabels() {
        return ad.getOptionLabels();
    }

    @Override
    public String validate(String value) {
        return ad.validate(value);
    }

    @Override
    public String[] getDefaultValue() {
        return ad.getDefaultValue();
    }
}
