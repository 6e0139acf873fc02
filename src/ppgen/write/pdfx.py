"""PDF/X: a finished CMYK PDF made a PDF/X-1a:2001 or PDF/X-4 file, for print shops.

    data = pdfx(pdf_bytes, "x1a", condition, profile_bytes, title="Ancient Duel — Rome")

What the standards ask of the file itself (ISO 15930-1 for X-1a:2001, ISO 15930-7 for X-4),
added here to what `Document` drew (every colour CMYK through the condition's profile,
TrimBox and BleedBox on every page, every font embedded, under X-1a no transparency and
PDF 1.3):

- an OutputIntent `/S /GTS_PDFX` naming the printing condition: OutputConditionIdentifier
  (a registered characterization, e.g. CGATS TR 003), RegistryName, Info, and the ICC
  output profile as DestOutputProfile (X-4 requires it; X-1a allows it: with it, the file
  carries the very profile its colours were separated with);
- Info: Title, CreationDate, ModDate, `GTS_PDFXVersion` (and for X-1a `GTS_PDFXConformance`),
  `Trapped /False`;
- XMP metadata agreeing with Info (pdfxid/pdfx GTS_PDFXVersion, dates, title, Trapped,
  document and version ids, rendition class);
- a trailer `/ID`, computed from the content (the same inputs give the same bytes).
"""
from __future__ import annotations

import hashlib
import io

from ..read.services import PDFX_VERSIONS as VERSIONS

HEADERS = {"x1a": b"%PDF-1.3", "x4": b"%PDF-1.6"}
DATE = "D:20000101000000+00'00'"  # ReportLab's invariant date: the build is reproducible
XMP_DATE = "2000-01-01T00:00:00+00:00"


def pdfx(data: bytes, standard: str, condition, profile: bytes, title: str) -> bytes:
    """`data` (a PDF a CMYK Document wrote) as a PDF/X file of `standard` (x1a | x4)."""
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import (ArrayObject, ByteStringObject, DecodedStreamObject, DictionaryObject, NameObject,
                               NumberObject, TextStringObject)

    version = VERSIONS[standard]
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(data)))
    icc = DecodedStreamObject()
    icc.set_data(profile)
    icc.update({NameObject("/N"): NumberObject(4)})
    icc = icc.flate_encode()
    intent = DictionaryObject({
        NameObject("/Type"): NameObject("/OutputIntent"),
        NameObject("/S"): NameObject("/GTS_PDFX"),
        NameObject("/OutputConditionIdentifier"): TextStringObject(condition.identifier),
        NameObject("/OutputCondition"): TextStringObject(condition.info),
        NameObject("/RegistryName"): TextStringObject(condition.registry),
        NameObject("/Info"): TextStringObject(condition.info),
        NameObject("/DestOutputProfile"): writer._add_object(icc),
    })
    root = writer._root_object
    root[NameObject("/OutputIntents")] = ArrayObject([writer._add_object(intent)])
    info = {"/Title": title, "/Creator": "ppgen", "/Producer": "ppgen", "/CreationDate": DATE, "/ModDate": DATE,
            "/GTS_PDFXVersion": version}
    if standard == "x1a":
        info["/GTS_PDFXConformance"] = version
    writer.add_metadata(info)
    writer._info.get_object()[NameObject("/Trapped")] = NameObject("/False")
    digest = hashlib.md5(data + version.encode() + condition.identifier.encode()).digest()
    metadata = DecodedStreamObject()
    metadata.set_data(_xmp(standard, title, digest.hex()).encode("utf-8"))
    metadata.update({NameObject("/Type"): NameObject("/Metadata"), NameObject("/Subtype"): NameObject("/XML")})
    root[NameObject("/Metadata")] = writer._add_object(metadata)
    writer._ID = ArrayObject([ByteStringObject(digest), ByteStringObject(digest)])
    writer.pdf_header = HEADERS[standard]
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def _xmp(standard: str, title: str, digest: str) -> str:
    """The XMP packet: what Info says, in XMP (ISO 15930-7 6.7.1; Adobe's pdfx for X-1a)."""
    from xml.sax.saxutils import escape

    version = VERSIONS[standard]
    uuid = f"{digest[:8]}-{digest[8:12]}-{digest[12:16]}-{digest[16:20]}-{digest[20:32]}"
    pdfx_ns = ('xmlns:pdfxid="http://www.npes.org/pdfx/ns/id/"', f"<pdfxid:GTS_PDFXVersion>{version}</pdfxid:GTS_PDFXVersion>")
    if standard == "x1a":
        pdfx_ns = ('xmlns:pdfx="http://ns.adobe.com/pdfx/1.3/"',
                   f"<pdfx:GTS_PDFXVersion>{version}</pdfx:GTS_PDFXVersion><pdfx:GTS_PDFXConformance>{version}</pdfx:GTS_PDFXConformance>")
    return f"""<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/">
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:xmp="http://ns.adobe.com/xap/1.0/"
 xmlns:pdf="http://ns.adobe.com/pdf/1.3/" xmlns:xmpMM="http://ns.adobe.com/xap/1.0/mm/" {pdfx_ns[0]}>
<dc:format>application/pdf</dc:format>
<dc:title><rdf:Alt><rdf:li xml:lang="x-default">{escape(title)}</rdf:li></rdf:Alt></dc:title>
<xmp:CreateDate>{XMP_DATE}</xmp:CreateDate><xmp:ModifyDate>{XMP_DATE}</xmp:ModifyDate><xmp:MetadataDate>{XMP_DATE}</xmp:MetadataDate>
<xmp:CreatorTool>ppgen</xmp:CreatorTool>
<pdf:Producer>ppgen</pdf:Producer><pdf:Trapped>False</pdf:Trapped>
<xmpMM:DocumentID>uuid:{uuid}</xmpMM:DocumentID><xmpMM:InstanceID>uuid:{uuid}</xmpMM:InstanceID>
<xmpMM:VersionID>1</xmpMM:VersionID><xmpMM:RenditionClass>default</xmpMM:RenditionClass>
{pdfx_ns[1]}
</rdf:Description>
</rdf:RDF>
</x:xmpmeta>
<?xpacket end="w"?>"""
