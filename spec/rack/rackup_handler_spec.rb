# frozen_string_literal: true

# `rackup -s nettyrack` on Rack 3, through the rackup gem. Without that gem (as on Rack 2
# machines) lib/rackup/handler/nettyrack.rb must load nothing; with it, register by name.
# A stand-in Rackup::Handler (spec/fixtures/rackup_stub) plays the gem when it is missing.
RSpec.describe "Rackup::Handler::Nettyrack" do
  let(:handler_file) { File.expand_path("../../lib/rackup/handler/nettyrack.rb", __dir__) }
  let(:stub_dir) { File.expand_path("../fixtures/rackup_stub", __dir__) }

  def rackup_installed?
    require "rackup/handler"
    true
  rescue LoadError
    false
  end

  it "loads nothing without the rackup gem, and registers with Rackup::Handler when it is there" do
    unless rackup_installed?
      load handler_file
      expect(defined?(Rackup)).to be_nil
      $LOAD_PATH.unshift(stub_dir)
    end
    load handler_file
    expect(Rackup::Handler.get(:nettyrack)).to be(Rackup::Handler::Nettyrack)
    expect(Rackup::Handler::Nettyrack.singleton_class).to include(Nettyrack::RackHandler)
  ensure
    $LOAD_PATH.delete(stub_dir)
  end
end
