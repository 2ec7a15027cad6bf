# frozen_string_literal: true

require "nettyrack/rails_check"

RSpec.describe Nettyrack::RailsCheck do
  # A stand-in for ::Rails with an application whose config says eager_load and cache_classes.
  def with_rails(eager_load, cache_classes: true, env: "production")
    config = Struct.new(:eager_load, :cache_classes).new(eager_load, cache_classes)
    application = Struct.new(:config).new(config)
    rails = Module.new
    rails.define_singleton_method(:application) { application }
    rails.define_singleton_method(:env) { env }
    stub_const("Rails", rails)
    yield
  end

  it "warns when Rails loads lazily on several threads" do
    with_rails(false) do
      expect(described_class.warning(16)).to start_with("nettyrack: warning: Rails runs on 16 threads with config.eager_load = false")
    end
  end

  it "says nothing for eager loading, one thread, or no Rails" do
    with_rails(true) { expect(described_class.warning(16)).to be_nil }
    with_rails(false) { expect(described_class.warning(1)).to be_nil }
    hide_const("Rails") if defined?(Rails)
    expect(described_class.warning(16)).to be_nil
  end

  it "warns when production Rails reloads code, on any number of threads" do
    with_rails(true, cache_classes: nil) do
      expect(described_class.warning(1)).to start_with("nettyrack: warning: Rails reloads code in production")
    end
    with_rails(true, cache_classes: false, env: "development") { expect(described_class.warning(16)).to be_nil }
  end
end
