# frozen_string_literal: true

require "nettyrack/platform"

RSpec.describe Nettyrack::Platform do
  it "accepts JRuby 9.4 and newer" do
    expect(%w[9.4.0.0 9.4.15.0 10.1.1.0].map { |v| described_class.problem(engine: "jruby", engine_version: v) })
      .to eq([nil, nil, nil])
  end

  it("accepts the JRuby running this spec") { expect(described_class.problem).to be_nil }

  it "sends CRuby users to jruby" do
    expect(described_class.problem(engine: "ruby", engine_version: "3.1.2", ruby_version: "3.1.2"))
      .to eq("nettyrack needs JRuby 9.4 or newer; this is ruby 3.1.2 (try: jruby -S nettyrack)")
  end

  it "names other Rubies by engine" do
    expect(described_class.problem(engine: "truffleruby", engine_version: "24.1.0", ruby_version: "3.2.4"))
      .to eq("nettyrack needs JRuby 9.4 or newer; this is truffleruby 24.1.0 (try: jruby -S nettyrack)")
  end

  it "refuses an older JRuby" do
    expect(described_class.problem(engine: "jruby", engine_version: "9.3.13.0", ruby_version: "2.6.8"))
      .to eq("nettyrack needs JRuby 9.4 or newer; this is JRuby 9.3.13.0 (Ruby 2.6.8): install a newer JRuby")
  end
end
