# frozen_string_literal: true

RSpec.describe Nettyrack::Setting do
  let(:by_name) { Nettyrack::Settings::BY_NAME }

  it "names a ServerConfig builder method for every limit and tuning value" do
    builder = Java::OrgNettyrackCoreConfig::ServerConfig.builder
    expect(Nettyrack::Settings::BUILDER.map(&:builder)).to all(satisfy { |name| builder.respond_to?(name) })
  end

  it "derives the flag and the placeholder from the name and kind" do
    expect(%i[max_body_size max_headers keep_alive_timeout].map { |name| [by_name[name].flag, by_name[name].metavar] })
      .to eq([%w[--max-body-size BYTES], %w[--max-headers N], %w[--keep-alive-timeout SECONDS]])
  end

  it "reads values by kind and sends seconds to Java as milliseconds" do
    timeout = by_name[:write_timeout]
    expect([by_name[:body_buffer].read("64k"), timeout.read("1.5"), timeout.to_java(1.5), by_name[:max_headers].to_java(7)])
      .to eq([65_536, 1.5, 1500, 7])
  end
end
